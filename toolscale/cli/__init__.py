"""The `toolscale` command line (`main`): a thin shell, each subcommand calls one library
function.

Holds:
- `main`: the `toolscale` command line: a thin shell, each subcommand calls one library function.
- `new_domain`: `toolscale new-domain`: write the domain (`toolscale.kit.scaffold.new_domain`), then
  say how to register, check and test it, in commands that work as printed from any folder.
- `options`: command-line flags derived from the options a run config declares
  (`toolscale.config.option`).
- `progress`: what `toolscale generate` shows while it runs and when it fails: a live progress bar
  with counts per stage, and the run's first domain errors with a traceback; every command's
  `error:` line and its line for a run stopped at `--max-cost-usd`.
- `publishing`: `toolscale card`, `push` and `export`: parse the flags, call the publishing function
  of the same name (`toolscale.publish`), say what it wrote.
- `synthesize_domain`: `toolscale synthesize-domain`: parse the flags, call `synthesize_domain`, say
  what it wrote.
"""

from toolscale.cli.main import app, main

__all__ = ["app", "main"]
