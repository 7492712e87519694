"""`python -m toolscale` runs the command line."""

from toolscale.cli.main import main

main()
