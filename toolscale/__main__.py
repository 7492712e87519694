"""`python -m toolscale` runs the command line."""

from toolscale.cli import main

main()
