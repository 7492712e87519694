"""`toolscale synthesize`: an LLM proposes tasks over a domain's tools and world; execution,
a do-nothing check, de-duplication and solver attempts filter them (ToolScale's pipeline).

One job per module: `candidates` parses what the model wrote, `prompts` builds what it reads,
`propose` asks for intents, tasks and evolved tasks, `filters` checks a candidate's form and
runs its gold actions, `dedup` finds near-duplicates and contaminated tasks, `solver` plays a
task K times, `endpoints` opens the proposer's and solver's pools, `pipeline` runs one domain's
stages, `run` drives the command (resume, budget, run.json), `shards` and `merge` split and join
`--shard` jobs. Elsewhere: its config is `toolscale.config.synthesize`, a stored task becomes a
playable one in `toolscale.sample.stored`, and its card section is
`toolscale.publish.card_synthesize`.
"""
