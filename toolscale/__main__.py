"""`python -m toolscale ...` runs the `toolscale` command line (the same as the installed script)."""

from toolscale.cli import main

main()
