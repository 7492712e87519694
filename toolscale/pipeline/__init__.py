"""Run generate (plan, one task, one chunk, the Ray executor, merge) and the run driver
every command shares.

Holds:
- `chunk`: one chunk of a run: its tasks played concurrently, then written as three shards and a
  marker.
- `driver`: the run driver every command shares: the steps around each command's own work.
- `generate`: `toolscale generate`: sample tasks, let a teacher attempt them, verify, write the
  dataset.
- `generate_options`: `generate`'s options, by the names of its flags, turned into the run's
  `GenerateConfig` (for the command line and the Python API alike).
- `inputs`: what `toolscale merge` reads of each shard job's output: its folder and run.json, the
  check that a command's shard jobs are all there once each, and the endpoint ledgers of two jobs
  added up.
- `merge`: `toolscale merge`: join the outputs of `generate --shard` jobs into one output.
- `plan`: the plan of a run: its chunks (name, domain, task indexes), the tasks split over the
  domains.
- `ray`: `generate --executor ray`: a run's chunks as Ray tasks, on a cluster or a local Ray
  instance.
- `task`: play one task: sample (or read) it, let the teacher attempt it, judge every attempt, label
  the group, and return its rows and statistics.
"""
