"""tau2-format domains: tau2-bench's own (airline, retail, ...) and the ToolScale environments.

A domain named `tau2:NAME` or `tau2:PATH` (toolscale.tau2.spec) is adapted into a toolscale
Domain (toolscale.tau2.domain) whose tools run tau2's code, whose state is tau2's database and
whose verdicts equal tau2's evaluator's on the reward components toolscale applies (docs/tau2.md).
Importing this package imports no tau2 module; tau2 is loaded when a tau2 domain is first used.

Holds:
- `agreement`: does toolscale's verdict equal tau2's reward? Gold and deliberately broken attempts
  at every task of a tau2 domain, judged by both.
- `bench`: run the tasks of `toolscale export --format tau2` in tau2-bench, with tau2's own CLI.
- `domain`: the toolscale Domain of a tau2 spec: tau2's database as the run's world, tasks from a
  task file.
- `evaluator`: tau2's own verdict on a toolscale attempt: the trace turned into a tau2 trajectory
  and judged by tau2's evaluators (its environment check, which replays gold and predicted actions
  on fresh environments and compares database hashes, and its communicate check).
- `loader`: load a tau2-format domain: its toolkit, database, policy and default task file.
- `nl_assertions`: the LLM judge of tau2's NL_ASSERTION reward component: which nl_assertions an
  attempt meets.
- `report`: what run.json and the data card say about a run's tau2 domains: which checks were
  applied.
- `scenario`: a tau2 task's user, as toolscale's `UserScenario`, and what the reference agent says
  last.
- `source`: find tau2-bench's source and import its modules without running `tau2/__init__`.
- `spec`: domain names of tau2-format domains: parse, canonicalise, and turn into file-safe names.
- `taskfile`: read tau2 tasks: tau2-bench task files (with their splits) and ToolScale rows.
- `toolkit`: a toolscale Toolkit over a tau2 environment: tau2's tools, schemas, tags and error
  rules.
"""
