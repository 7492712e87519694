"""The data card template (`template.md`, Jinja2), shipped as package data so `toolscale card`
works from an installed wheel as well as from a checkout."""
