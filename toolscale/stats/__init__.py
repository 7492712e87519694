"""Typed, summable statistics of a run and every number its card shows.

Holds:
- `attempts`: per-task attempt statistics for run.json: pass@k, the solvable band, model mistakes.
- `card_numbers`: every number a data card shows, computed from the output's parquet shards and its
  run.json.
- `economics`: the data card's economics numbers: schedules used, group-reward signal, the gaming
  check.
- `numbers`: the two summaries every statistic here is made of: counts added key by key, and the
  distribution of a list of numbers.
- `reward_report`: reward component distributions per domain and profile counts, as run.json reports
  them.
- `routes`: is routing worth learning: per domain, the share of tasks each route is the oracle route
  on, and the mean reward of each fixed route relative to the oracle's, from the tasks' route
  tables.
- `run_stats`: run statistics: one typed, summable record, kept per chunk and summed into run.json.
- `sft_choice`: which verified traces SFT imitates (`--variants`): one module read by the trainer's
  SFT (`toolscale-train sft`) and `toolscale export --format sft`, so both take the same traces.
- `variants`: what each trace is for: its variant's kind (gold, another route, a detour, a format
  slip), the counts of each kind per domain, and comparisons between kinds on the same tasks only.
- `yields`: the yields of a synthesize run: one typed, summable funnel per domain.
"""
