"""The oracle route of a task: every route played and judged, the best made the gold.

Holds:
- `expected`: the expected-reward oracle: each route's reward as a policy can expect it, and the
  best one.
- `played`: the oracle route of a task: play every route it admits, judge each, make the best the
  gold.
"""
