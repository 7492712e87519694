"""What users do with an output: the card, validate, push, export.

Holds:
- `api`: the validation API for users' own tests: is this trace row, or this dataset, what toolscale
  guarantees?.
- `card`: `toolscale card`: render OUT/README.md, the Hub dataset card, from run.json and the data.
- `card_config`: the run configuration as the data card shows it: once, and only the options that
  differ from their defaults (the required ones always), without the output's local path.
- `card_lengths`: prompt and completion lengths in tokens, per domain, for the card: what
  `max_length` needs.
- `card_plots`: the data card's PNG plots, per domain: reward by kind of variant, cost and latency
  on log axes, success and cost per route (from the route tables), failure stages of the rejected
  rows.
- `card_synthesize`: the synthesize section of the data card: loadable configs, the funnel, the
  solver band, the endpoints' requests and tokens, all read from run.json (`toolscale.publish.card`
  renders it).
- `export`: `toolscale export`: write an output folder in another project's format — tau2-bench task
  files (`--format tau2`) or chat-format JSONL for supervised fine-tuning (`--format sft`).
- `push`: `toolscale push`: upload an output folder to the Hugging Face Hub as a dataset repository.
- `sft_export`: `toolscale export --format sft`: the traces SFT imitates as chat-format JSONL.
- `tau2_export`: `toolscale export --format tau2`: an output's stateful tasks as tau2-bench domain
  folders.
- `validate`: `toolscale validate`: re-check every row of an output folder and name the rows that
  fail.
"""
