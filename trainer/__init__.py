"""The GRPO / SFT trainer on TRL (`toolscale-train`), over the same sandbox, judge and rows.

Each rollout runs in a TRL environment over the sandbox and is judged by the same `Rubric` into
the Trace row generation would write; the reward functions read its labels. `toolscale-train
evaluate` puts any orchestrator beside the oracle, every fixed route and a light router.

Holds:
- `args`: toolscale's training options, added to TRL's GRPOConfig / SFTConfig and parsed by
  TrlParser.
- `cached_generation`: GRPO rollouts generated with the prompts' shared head encoded once (CPU
  runs).
- `callbacks`: save the training metrics of every logging step of a run (JSON lines) and plot them
  as a PNG.
- `checkpoint_rollouts`: evaluate a local checkpoint on tasks: multi-turn rollouts with its tools
  run in the sandbox, judged by the verifier and scored with the reward it was trained on
  (`toolscale-train evaluate` puts the result in its table, `trainer.evaluate`).
- `competence`: the competence-and-cost router: each route's accuracy per kind of task, learnt
  from a few dozen training tasks, weighed against its cost under the task's own prices.
- `cli`: `toolscale-train grpo|sft|evaluate [--config FILE] [--key value ...]`: a thin shell over
  the trainer (`trainer.grpo.grpo`, `trainer.sft.sft`, `trainer.evaluate.evaluate`).
- `cli_options`: the CPU defaults `toolscale-train grpo|sft` adds to its arguments before TRL parses
  them where no GPU is present (`trainer.args.parse` applies them).
- `data`: read a toolscale dataset for training and check it before any training starts.
- `decode`: continue a batch of token prompts with one model, reusing the KV cache of their shared
  prefix.
- `endpoint_rollouts`: evaluate an orchestrator served behind an OpenAI-compatible endpoint on
  toolscale tasks.
- `environment`: TRL `environment_factory` classes: one per domain, each tool executed in the
  toolscale sandbox.
- `evaluate`: `toolscale-train evaluate`: any orchestrator on a toolscale dataset's tasks, in one
  table.
- `group_filter`: GRPO with ToolOrchestra's group filter: a group whose rewards barely differ trains
  nothing.
- `grpo`: `toolscale-train grpo`: GRPO with TRL on a toolscale `tasks` config, tools run in the
  sandbox.
- `model`: load the policy model and its tokenizer, with a chat template TRL can parse tool calls
  from.
- `nano`: save the nano-orchestrator's untrained starting point: a `tiny-random` Qwen3 of a given
  size and its BPE learnt from the training side's SFT conversations only, as a checkpoint folder.
- `parser`: TRL's argument parser for `toolscale-train`, whose usage mistakes are one ConfigError
  line.
- `reference_routes`: the reference rows of an evaluation: the oracle and every fixed route, played
  at each task.
- `reward_config`: the reward configuration a run trains on: the dataset's own, then the run's
  explicit overrides.
- `reward_functions`: TRL reward functions, one per reward component, computed by generation's
  rubric (`toolscale.judge.rubric`: verifier, metrics, labels) on what the policy really did in the
  sandbox.
- `rollout_dump`: write a sample of each GRPO step's rollouts, every turn of them, to
  OUTPUT/rollouts.jsonl.
- `route_mix`: the route mix of GRPO's rollouts: each rollout's route class, counted into per-step
  shares.
- `router`: the router baseline: a light model that picks a task's route from what a policy sees.
- `router_rows`: the router baseline's row of an evaluation, and the expected-reward oracle's.
- `selection`: which rows training reads: `--max_tasks` as a stratified draw across domains, and
  `--variants`, the SFT traces per task (by default the one best trace: for a task with routes, its
  `expected_route`'s, the best route by expected reward, which is what a policy can know; else its
  gold route).
- `sft`: `toolscale-train sft`: an optional warm start on the verified `traces`, with TRL's
  SFTTrainer.
- `split`: a content-disjoint held-out split of `tasks` rows: no held-out problem is a training
  problem.
- `table`: the evaluation table: one row per policy over the same tasks, and what route each one
  chose.
- `tool_text`: the tool descriptions a model was trained on, kept beside it, and a warning when they
  changed.
- `user_seat`: who plays the caller of stateful tasks in GRPO and `evaluate`: an LLM user, or the
  scripted user.
- `verdict`: what an evaluation table says about training: did the trained row beat the base row, by
  more than chance, and what each row is.
- `warm_start`: warm start for smoke runs: a few SFT steps, in process, on the verified traces of
  the very tasks GRPO then trains on, so a tiny random model's rollouts sometimes call the right
  tools and sometimes not: a reward spread, and so a gradient, from the first GRPO step.
"""
