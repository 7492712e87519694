"""`toolscale synthesize`: an LLM proposes tasks over a domain's tools and world; execution,
a do-nothing check, de-duplication and solver attempts filter them (ToolScale's pipeline).

Elsewhere: its config is `toolscale.config.synthesize`, a stored task becomes a
playable one in `toolscale.sample.stored`, and its card section is
`toolscale.publish.card_synthesize`.

Holds:
- `accept`: the checks of one parsed candidate before it becomes a task: format, gold execution
  (with its refused call), sourced facts, and the caller's scenario, each a stage with its reasons.
- `candidates`: parse what the proposing model wrote: intents and candidate tasks, as typed records.
- `dedup`: near-duplicate and contamination checks: MinHash (datasketch) over a task's words and its
  gold-call signature.
- `endpoints`: the clients of one synthesize run, built the way `generate` builds its teacher
  (`toolscale.play.factory`): one endpoint pool per role (proposer: intents, tasks, evolved tasks;
  solver; user simulator), each spreading its requests over its URLs (`toolscale.llm.endpoints`),
  with one request cache, one budget for all, and the retries and key handling of the shared client.
- `facts`: required facts with a source: each fact a proposer names is a value found in a named
  field of one gold call's result, checked with the judge's own fact matching.
- `filters`: the filters a candidate task passes before the solver sees it: well-formed, its gold
  actions execute (and change the state when the task is a write; a refused call fails), the caller
  can give every identifier and every detail the gold route needs, a question names a fact, and
  doing nothing does not solve it.
- `pipeline`: run the synthesize stages for each domain and write the output in generate's layout.
- `prompts`: what the proposing model reads: the domain's policy and tools, one caller's view of the
  state (`toolscale.synthesize.view`), and what to write back (intents, a task, a harder task, or a
  decline) as JSON.
- `propose`: the proposing stages: intents for a domain, a task per intent, a harder task per task.
- `returns`: what each tool returns, shown to the proposer: one real call of every tool on the
  view's state.
- `rows`: the rows and states of candidates: a rejected candidate's `rejected_tasks` row, the reason
  a near-duplicate is given, and the state an intents batch is grounded in (shared by the pipeline
  and `toolscale merge`).
- `shards`: what a `synthesize --shard I/N` job leaves for `toolscale merge` beside its rows.
- `solver`: the solver band: a solver teacher plays a candidate task K times; the verifier judges
  each.
- `synthesis`: `toolscale synthesize`: check the options, run every domain's stages, write OUT.
- `synthesis_merge`: `toolscale merge` of `synthesize --shard I/N` outputs: one output equal to the
  unsharded run.
- `view`: what the proposer is shown of a domain's state: one caller with every record linked to
  them.
"""
