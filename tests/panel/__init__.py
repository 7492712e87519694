"""An agent panel: scripted agents that play each task's gold calls but talk as different capable
agents do, and agents that act wrongly, played by the real `OpenAITeacher` against the scripted
user and the LLM user simulator (each side served by an in-process scripted endpoint) and judged
by the real `Rubric` (issue 33). `benchmarks/agent_panel.py` prints its table;
`tests/test_agent_panel.py` checks its invariants on a few tasks per domain."""
