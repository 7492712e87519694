"""Judge one attempt: verify, measure, label, reward (the Rubric composes them).

Holds:
- `answer`: check `expected answer`: a task with an expected answer gets it, committed to once.
- `attributed`: figures tied to what they are said of: a labelled amount is that field's, a date
  said of a record is that record's.
- `checks`: judging as a named list of checks: what an attempt must pass to be verified, in order.
- `components`: the reward as an open list of named, weighted components, each one function of a
  judged attempt.
- `consent`: check `consent`: every change of a conversation follows the caller's yes to it.
- `evidence`: check `evidence`: the required facts are backed by the attempt's own look-ups.
- `execution`: check `execution`: no call crashed or timed out in the sandbox.
- `facts`: check `required facts`: the caller was told every fact the task requires, in any agent
  message once the fact is established.
- `figure_made`: figures an agent makes from the other figures of its message, which a careful
  grader checks by doing the sum.
- `figure_roles`: what a stated figure is said as: a claim, a rate, a bound, a step of worked
  arithmetic, or an offered date.
- `figures`: stated figures must be true: every amount, count and date an agent tells the caller is
  backed.
- `format`: check `format`: every call names an offered tool with arguments its schema accepts, and
  the conversation shows exactly the recorded calls, results and final answer.
- `grounding`: check `grounding`: replaying the calls on a fresh copy of the task's state reproduces
  every recorded output, status and token count, and the recorded final state hash.
- `labels`: label attempts: the teacher's own cost, preference compliance and speed, reward
  components and total — and ToolOrchestra's reward within the group of attempts at one task.
- `metrics`: per-call prices and per-trace metrics: calls, turns, tokens, cost, modelled latency,
  size.
- `pasting`: check `pasting`: the final answer states the answer instead of pasting a tool result.
- `readings`: what one input text shows the figures check: its numbers, counts, dates, periods
  and percentages.
- `refusal`: check `refusal reason`: a refusal gives the task's own reason, not another rule's.
- `rewards`: the multi-objective reward: its three components, their weighted total, and the
  ToolOrchestra group-normalised reward.
- `rubric`: the rubric: verify, measure, label and reward one attempt at a task, the same way
  everywhere.
- `seen`: what one check of the judge reads and is: an attempt, its task, its domain and the run's
  caches (`Seen`), and a named check of one stage (`Check`).
- `shown`: what the agent was shown, as the figures check reads it: the numbers, counts, dates,
  periods and rates of its inputs.
- `state`: check `state`: the final state is the gold final state (hash equality, tau2's DB check).
- `stated`: what an agent's message states as figures: its amounts, counts and dates, read as people
  write them, and nothing else (`toolscale.judge.figures` checks that each is backed).
- `told_figures`: check `figures`: every amount, date and count the agent tells the caller is backed
  by what it was shown (`toolscale.judge.figures` reads them; `toolscale.judge.attributed` ties them
  to what they are said of).
- `user_fault`: the user-fault check: recognise a rejected attempt that the simulated user broke,
  not the agent.
- `validators`: each task's tool validators (jsonschema), built once and kept for the task's next
  attempt.
- `verify`: judge one attempt: run the judge's named checks in order (`toolscale.judge.checks`:
  format, execution, grounding, then the outcome's pasting, state, required facts, evidence,
  figures, refusal reason, consent and expected answer), stopping at the first failed stage.
"""
