"""Checks of a domain and of an output's rewards: check-domain, the fuzzer, check-rewards.

Holds:
- `check_domain`: `toolscale check-domain NAME`: run the domain contract's checks on one installed
  domain.
- `consistency`: whether a stateful task reads as consistent to a careful reader: its scenario, its
  preference sentence and its world (check-domain runs these on every task; tests on broken ones).
- `findings`: check-domain's findings and its report: one line per distinct problem, follow-ons left
  out.
- `fuzz`: check-domain's fuzzer: call every tool of a domain with hostile arguments, each call on a
  fresh state in the sandbox pool, and report each tool that crashes, runs too long, or changes the
  state of a READ tool.
- `gaming`: scripted gaming policies: attempts that try to collect reward without doing the task
  well.
- `hostile`: hostile tool arguments: for one tool's JSON schema, the schema-valid values that break
  careless tools (empty, boundary, huge, negative, non-finite, long and odd-unicode strings, wrong
  but plausible ids, deep nesting), one parameter at a time.
- `identification`: whether a task's gold route identifies the caller the way its policy allows,
  from what the caller holds.
- `one_reason`: check-domain's one-reason check: a refusal task's refused call breaks exactly one
  rule.
- `receipts`: the receipt rule: what a gold write returns agrees with a read of the same record
  after it.
- `reward_check`: `toolscale check-rewards`: play the gaming policies on a run's tasks and tabulate
  who wins.
- `task_checks`: the checks of one task of check-domain (`toolscale.check.check_domain` runs them).
- `variety`: the variety of a stateful domain's tasks, and the floor the bundled domains set for it.
"""
