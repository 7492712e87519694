"""Tools shared by several domains, as Toolkit mixins: arithmetic, code execution, experts.

Holds:
- `arith`: evaluate an arithmetic expression safely: numbers, + - * / // % **, parentheses, nothing
  else.
- `bounded_arith`: arithmetic whose every intermediate result is bounded: the calculator's
  operations, checked before and after each step, so no expression costs more than a few
  microseconds per operator.
- `bounds`: bounds on the values a model sends to a tool: each check returns the value or raises a
  ToolError that says what is allowed.
- `capabilities`: the experts' capability sentences, measured: each simulated alias asked the
  questions of sampled tasks of a domain, its share right by kind, and one sentence per alias for
  the system prompt (as ToolOrchestra describes its models to the orchestrator).
- `delegate`: `answer`: ToolOrchestra's delegated answer, as a Toolkit mixin: the call names a
  model, the environment hands it the user's question, and the model's reply is the final answer.
- `expert_endpoints`: real endpoints behind expert aliases: the experts YAML, and one cached, priced
  call.
- `experts`: `ask_expert`: model tools ("experts") expert-1/2/3, priced per token, as a Toolkit
  mixin.
- `generic`: the GENERIC tools every stateful (tau2-style) domain offers, as a Toolkit mixin.
- `orchestration`: the basic tools of the orchestration domains (calculator, code_executor), as a
  Toolkit mixin.
- `price_setups`: provider set-ups: a task's own prices for some of its tools and models, where fast
  means dear.
- `skills`: skill profiles of the simulated experts, and the capability sentences measured from
  them.
"""
