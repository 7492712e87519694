"""Build full tasks: ids, schemas, the run's worlds and the task sources.

Holds:
- `budgets`: a routed task's user limits, fitted once its routes have been played: a stated budget,
  and a forbidden tool the task can still be solved without.
- `in_worker`: sample a task in a sandbox worker: build it and execute its gold actions there.
- `odds`: the chance that a route is right, as a policy can know it: from the experts' skill
  profiles.
- `stored`: a synthesized task as a Task row, and a stored synthesized Task back as a playable task.
- `stored_source`: `generate --tasks-from OUT`: play the accepted tasks of a synthesize output
  instead of sampling tasks.
- `tasks`: build a full Task from a domain's sampler: ids, schemas, prices, the gold outcome, and
  the user's preference profile.
- `worlds`: the run's worlds: one shared database per (stateful domain, run seed), stored once per
  run.
"""
