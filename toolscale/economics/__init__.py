"""The cost and user model: price schedules and tables, and user preferences.

Holds:
- `budgets`: budgets a user states: "keep it under 1 cent", "I need it within 5 seconds".
- `fit`: which tool a stateful task's caller may ask the agent not to use: one that fits the
  request.
- `preferences`: user preference profiles: sampling one per task, its instruction, its vector P and
  its checks.
- `prices`: price schedules: one cost model in US dollars for every tool, model and the
  orchestrator.
- `sayings`: how a caller says a preference profile: the sentences a task's instruction ends with.
"""
