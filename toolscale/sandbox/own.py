"""Run a domain's own program in this process, when that says exactly what the sandbox would.

A domain's routes may run code the domain wrote itself (math's programs that print an answer),
played by the task's build, the oracle and the reference teacher, never by a model. Starting a
sandboxed interpreter for each costs ~15-20 ms of CPU (a fresh `python -I -S` and bubblewrap's
namespaces), far more than these programs take. `run_own` runs such a program here instead and
gives its result only where the sandbox's would be the same bytes: it ended within one CPU
second, raised nothing (a MemoryError past MEMORY_MB more than the worker holds included),
warned nothing, wrote nothing to stderr, printed UTF-8 text within the output cap, imported only
modules of `PURE` and opened no file or stdin; the builtins it sees are the sandboxed
interpreter's, which starts without `site` (no `exit`, `quit`, `help`). Anything else returns
None, and the caller runs the program in the sandbox, which then says what happens (a
traceback, a time or memory limit). `tests/sandbox/test_own.py` compares the two on every code
route of 120 math tasks (the bundled domain with code routes).

This is not a sandbox: only code a domain's sampler wrote comes here (`Toolkit.own_programs`,
set where a task is built and where the oracle or the reference teacher replays a built task's
routes); code a model wrote (an LLM teacher's, a policy's, a stored task's gold) always runs in
the sandbox. A program that reads the clock (`datetime.now`) or depends on the hash seed prints
what it prints in either place, as it would in two sandboxes.
"""

from __future__ import annotations

import builtins
import io
import os
import resource
import signal
import warnings
from contextlib import redirect_stderr, redirect_stdout
from types import ModuleType
from typing import Any

from toolscale.sandbox.code import MAX_OUTPUT, MEMORY_MB, ExecResult

# Standard-library modules whose results depend on their arguments alone.
PURE = frozenset(
    [
        "math",
        "cmath",
        "fractions",
        "decimal",
        "numbers",
        "itertools",
        "functools",
        "operator",
        "collections",
        "heapq",
        "bisect",
        "statistics",
        "string",
        "re",
        "datetime",
        "calendar",
    ]
)
# What `site` adds to builtins: absent in the sandbox's `python -I -S`.
_SITE = ("exit", "quit", "help", "copyright", "credits", "license")
BUDGET_S = 1.0  # CPU seconds a program may take here before the sandbox runs it instead


class _NotHere(BaseException):
    """The program did something whose result only the sandbox can say (a BaseException, so
    that the program's own `except Exception` does not take it for an error of its own)."""


def _sandbox_builtins(refused: list[str]) -> ModuleType:
    """A builtins module as the sandboxed interpreter has it, imports limited to `PURE`, files
    and stdin refused; each refusal is noted in `refused` (a program may catch it)."""

    def refuse(what: str) -> Any:
        refused.append(what)
        raise _NotHere(what)

    def imported(name: str, *args: Any, **kwargs: Any) -> Any:
        level = kwargs.get("level", args[3] if len(args) > 3 else 0)
        if level or name.split(".")[0] not in PURE:
            refuse(f"import {name}")
        return builtins.__import__(name, *args, **kwargs)

    def closed(*args: Any, **kwargs: Any) -> Any:
        return refuse("open, input or breakpoint")

    module = ModuleType("builtins")
    module.__dict__.update((k, v) for k, v in vars(builtins).items() if k not in _SITE)
    module.__dict__.update(__import__=imported, open=closed, input=closed, breakpoint=closed)
    return module


def _limit_memory(hard: int) -> None:
    """Let this process's address space grow by the sandbox's MEMORY_MB at most, so that a
    domain's program that would fail the sandbox's memory limit fails here too (and goes to
    the sandbox)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    soft = size + (MEMORY_MB << 20)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_own(code: str, max_output: int = MAX_OUTPUT) -> ExecResult | None:
    """What the sandbox would report for `code`, or None when only the sandbox can say."""
    out, err = io.StringIO(), io.StringIO()
    refused: list[str] = []
    scope = {"__name__": "__main__", "__builtins__": _sandbox_builtins(refused)}

    def over_budget(signum: int, frame: Any) -> None:
        refused.append("over budget")
        raise _NotHere("over budget")

    previous = signal.signal(signal.SIGVTALRM, over_budget)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    try:
        _limit_memory(limits[1])
        with warnings.catch_warnings(record=True) as warned, redirect_stdout(out):
            warnings.simplefilter("always")
            with redirect_stderr(err):
                signal.setitimer(signal.ITIMER_VIRTUAL, BUDGET_S)
                exec(compile(code, "<code>", "exec"), scope)
    except (Exception, SystemExit, _NotHere):  # the sandbox says what happens
        return None
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, limits)
    text = out.getvalue()
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return None
    if refused or warned or err.getvalue() or size > max_output:
        return None
    return ExecResult(text, "", 0, False, None, False)
