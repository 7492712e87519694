"""`python -m toolscale ...` runs the `toolscale` command line (as the installed script does)."""

from toolscale.cli import main

main()
