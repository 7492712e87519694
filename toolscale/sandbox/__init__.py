"""Execution outside the pipeline process: domain tools in a worker pool, code in a subprocess.

Holds:
- `bootstrap`: the first code a sandboxed interpreter runs: wait for one job, apply its limits, run
  it.
- `bridge`: a SandboxPool for synchronous callers: the pool runs on its own event loop in a thread.
- `code`: run untrusted Python code in an isolated, resource-limited interpreter and report what it
  did.
- `command`: build the command line that starts one sandboxed interpreter, for each isolation level.
- `contained`: start sandbox workers in bubblewrap when a model wrote a domain they may import.
- `execute`: execute one tool call on a toolkit and turn whatever happens into a CallOutcome.
- `guard`: refuse to run model-written code below full isolation, unless the run accepted a weaker
  level.
- `isolation`: find, once per process, the strongest isolation this machine allows for untrusted
  code.
- `own`: run a domain's own program in this process, when that says exactly what the sandbox would.
- `pool`: a pool of sandbox worker processes that execute tool calls for many concurrent episodes.
- `warm`: sandboxed interpreters started ahead of time, so that a call does not wait for start-up.
- `worker`: the sandbox worker process: holds episode states and executes tool calls sent by the
  pool.
"""

from toolscale.sandbox.code import ExecResult, run_code

__all__ = ["ExecResult", "run_code"]
