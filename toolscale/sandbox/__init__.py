"""Execution outside the pipeline process: domain tools in a worker pool, code in a subprocess."""

from toolscale.sandbox.code import ExecResult, run_code

__all__ = ["ExecResult", "run_code"]
