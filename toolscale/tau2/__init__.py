"""tau2-format domains: tau2-bench's own (airline, retail, ...) and the ToolScale environments.

A domain named `tau2:NAME` or `tau2:PATH` (toolscale.tau2.spec) is adapted into a toolscale
Domain (toolscale.tau2.domain) whose tools run tau2's code, whose state is tau2's database and
whose verdicts equal tau2's evaluator's on the reward components toolscale applies (docs/tau2.md).
Importing this package imports no tau2 module; tau2 is loaded when a tau2 domain is first used.
"""
