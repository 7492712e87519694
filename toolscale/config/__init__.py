"""The options of a run, each declared once: run configs, --shard, --config files, provenance.

Holds:
- `files`: run config files: `--config run.yaml` supplies any option of a command; flags override
  it.
- `generate`: the options of one `toolscale generate` run: the resolved config saved in run.json.
- `option`: one declaration per option: a config field that carries its command-line help.
- `provenance`: where the running toolscale came from, for run.json: its version, its libraries',
  and the git commit of its source tree.
- `run_options`: the options every run command shares: its output folder, `--resume` and `--shard
  I/N`.
- `shard`: `--shard I/N`: which chunks of a run's plan one of N independent jobs produces.
- `synthesize`: the options of one `toolscale synthesize` run, and their checks (before any
  request).
- `teacher`: the options of the LLM teachers (`openai`, `local`), part of every run's resolved
  config.
- `teacher_checks`: check the LLM teacher options before anything is written or sent: one line per
  mistake.
"""
