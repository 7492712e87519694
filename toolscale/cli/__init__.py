"""The `toolscale` command line (`main`): a thin shell, each subcommand calls one library
function."""

from toolscale.cli.main import app, main

__all__ = ["app", "main"]
