"""The options of a run, each declared once: run configs, --shard, --config files, provenance."""
