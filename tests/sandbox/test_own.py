"""A domain's own programs run in the worker only where that gives the sandbox's bytes
(`toolscale.sandbox.own`); a model's code always runs in the sandbox."""

from __future__ import annotations

import asyncio
import resource
import signal
import sys

import pytest

from toolscale.core.contract import Action
from toolscale.core.registry import get_domain
from toolscale.core.state_text import canonical_state
from toolscale.sample.stored import playable
from toolscale.sample.tasks import build_task
from toolscale.sandbox.code import run_code
from toolscale.sandbox.isolation import found_level
from toolscale.sandbox.own import run_own
from toolscale.sandbox.pool import SandboxPool

TASKS = 120  # math tasks of seed 0 whose every code route is compared


def code_routes(count: int) -> list[str]:
    """Every program a math task's routes run (gold, routes, detours), tasks 0..count-1."""
    domain = get_domain("math")
    programs = []
    for index in range(count):
        item = build_task(domain, 0, index, 15.0)
        actions = [a for r in item.routes for a in r.actions]
        actions += [Action(a["name"], a["arguments"]) for a in item.task.gold_actions]
        programs += [a.arguments["code"] for a in actions if a.name == "code_executor"]
    return list(dict.fromkeys(programs))


@pytest.mark.skipif(found_level() != "bwrap", reason="compares against the bubblewrap sandbox")
def test_every_math_code_route_says_here_what_the_sandbox_says():
    programs = code_routes(TASKS)
    here = {code: run_own(code) for code in programs}
    for code, result in here.items():
        if result is not None:
            assert result.as_tool_output() == run_code(code, timeout_s=10).as_tool_output(), code
    ran_here = [c for c, r in here.items() if r is not None]
    failing = [c for c in programs if "print(answer + " in c]  # the retry detour's NameError
    # Every program but the deliberately broken ones runs here; those go to the sandbox, whose
    # traceback is their output.
    assert failing and all(here[c] is None for c in failing)
    assert len(ran_here) == len(programs) - len(failing)
    assert "NameError" in run_code(failing[0], timeout_s=10).as_tool_output()


@pytest.mark.parametrize(
    "code",
    [
        "exit()",  # the sandbox's interpreter starts without site: NameError there
        "import os\nprint(os.getpid())",
        "import math, sys\nprint(1)",
        "from . import x",
        "print(open('/etc/hostname').read())",
        "print(input())",
        "try:\n    import socket\nexcept BaseException:\n    pass\nprint(1)",  # caught refusal
        "raise ValueError('no')",
        "print('a' * 20000)",  # over the output cap: the sandbox truncates and marks it
        "print('\\ud800')",  # not UTF-8: the sandbox's stdout would fail
        "x = '\\d'\nprint(x)",  # an invalid escape warns at compile time
        "while True:\n    pass",  # over the CPU budget: the sandbox's limits decide
    ],
)
def test_what_only_the_sandbox_can_say_is_left_to_it(code):
    handler = signal.getsignal(signal.SIGVTALRM)
    stdout = sys.stdout
    assert run_own(code) is None
    assert sys.stdout is stdout and signal.getsignal(signal.SIGVTALRM) is handler


def test_a_pure_program_is_answered_here_as_the_sandbox_answers_it():
    said = run_own("from fractions import Fraction\nprint(Fraction(1, 3) + Fraction(1, 6))")
    assert said is not None and said.as_tool_output() == "1/2"
    assert run_own("pass").as_tool_output() == "[no output]"  # type: ignore[union-attr]
    # The builtins it sees are a module, as the sandboxed interpreter's are.
    assert run_own("print(type(__builtins__).__name__)").stdout == "module\n"  # type: ignore[union-attr]


def test_only_built_tasks_have_their_domains_own_routes():
    item = build_task(get_domain("math"), 0, 0, 15.0)
    assert item.own_routes
    # A stored task (an LLM may have written its gold code) is not the domain's own.
    body = item.task.model_dump(exclude={"id"})
    assert not playable(body, item.gold_outcomes).own_routes


def test_a_models_call_runs_in_the_sandbox_and_an_own_route_here():
    # The one program here whose output tells the two apart: the import function it sees.
    probe = [("code_executor", {"code": "print(__import__)"})]
    state = canonical_state({})

    async def go() -> tuple[str, str, str]:
        async with SandboxPool(workers=1) as pool:
            model = await pool.episode("math", state).call(*probe[0])
            replayed, _ = await pool.replay("math", state, probe)
            own, _ = await pool.replay("math", state, probe, own=True)
            return model.output, replayed[0].output, own[0].output

    model, replayed, own = asyncio.run(go())
    assert model == replayed == "<built-in function __import__>"
    assert own.startswith("<function _sandbox_builtins.<locals>.imported")


def test_a_program_past_the_sandboxs_memory_limit_is_left_to_it():
    limits = resource.getrlimit(resource.RLIMIT_AS)
    assert run_own("x = bytearray(600 << 20)\nprint(len(x))") is None
    assert run_own("x = bytearray(100 << 20)\nprint(len(x))").stdout == f"{100 << 20}\n"  # type: ignore[union-attr]
    assert resource.getrlimit(resource.RLIMIT_AS) == limits
