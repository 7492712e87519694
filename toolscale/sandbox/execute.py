"""Execute one tool call on a toolkit and turn whatever happens into a CallOutcome.

This is the semantics every caller shares (the worker processes, the verifier's replay): unknown
tools and schema-invalid arguments are model errors returned as text; a ToolError is a model error;
any other exception is a crashed call (its traceback kept beside the outcome for the run's error
report, never shown to the model); a call past its time limit is a timed-out call. The outcome is
plain data, so it crosses process boundaries as is. It runs inside the worker process.
"""

from __future__ import annotations

import json
import signal
import traceback
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from toolscale.core.contract import Domain, ToolError, Toolkit, tool_text
from toolscale.core.packing import pack, unpack


@dataclass(frozen=True)
class CallOutcome:
    output: str
    status: str  # ok | error | crash | timeout
    model: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_latency_ms: float = 0.0
    # A crashed call's traceback: for the run's error report, never part of a trace.
    traceback: str = ""


class CallTimeout(BaseException):
    """Raised inside a tool by the alarm; a BaseException so that tools cannot swallow it."""


def _alarm(signum: int, frame: Any) -> None:
    raise CallTimeout


@cache
def validator(toolkit: type[Toolkit], name: str) -> Draft202012Validator:
    schema = next(s for s in toolkit.schemas() if s["function"]["name"] == name)
    return Draft202012Validator(schema["function"]["parameters"])


def argument_errors(toolkit: type[Toolkit], name: str, arguments: Any) -> list[str]:
    """Schema violations of `arguments` for tool `name` (empty when valid)."""
    if not isinstance(arguments, dict):
        return ["arguments must be a JSON object"]
    return [e.message for e in validator(toolkit, name).iter_errors(arguments)]


def execute(kit: Toolkit, name: str, arguments: Any, timeout_s: float) -> CallOutcome:
    """Run `kit.<name>(**arguments)` with a time limit; never raises for what the call did."""
    specs = type(kit).specs()
    if name not in specs:
        return CallOutcome(f"Error: unknown tool {name!r}; available: {', '.join(specs)}", "error")
    problems = argument_errors(type(kit), name, arguments)
    if problems:
        return CallOutcome(f"Error: invalid arguments for {name}: {'; '.join(problems)}", "error")
    kit.usage = None
    crash = ""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        output, status = tool_text(getattr(kit, name)(**arguments)), "ok"
    except ToolError as exc:
        output, status = f"Error: {exc}", "error"
    except CallTimeout:
        output, status = f"Error: {name} timed out after {timeout_s:g} s", "timeout"
    except Exception as exc:  # a bug in the tool: recorded as a crashed call, never raised
        output, status = f"Error: {name} failed internally ({type(exc).__name__})", "crash"
        crash = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    usage = kit.usage
    if usage is None:
        return CallOutcome(output, status, traceback=crash)
    return CallOutcome(
        output,
        status,
        usage.model,
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.latency_ms,
        crash,
    )


def fresh_toolkit(domain: Domain, state_json: str) -> Toolkit:
    """A toolkit on a fresh copy of the task's state."""
    return domain.toolkit.opened(state_json, fresh_state)


# States parsed in this process, kept packed (`toolscale.core.packing`): a task's state arrives
# once per route and once per attempt's replay, and unpacking a copy is several times faster than
# parsing its JSON again (a world of a few hundred kilobytes: ~1.3 ms instead of ~18 ms).
_PARSED: OrderedDict[str, bytes] = OrderedDict()
_PARSED_KEPT = 32  # about the tasks a worker serves at once


def fresh_state(state_json: str) -> dict[str, Any]:
    """A new object equal to `json.loads(state_json)`, types included, for the caller to change."""
    packed = _PARSED.get(state_json)
    if packed is not None:
        _PARSED.move_to_end(state_json)
        return unpack(packed)
    state = json.loads(state_json)
    _PARSED[state_json] = pack(state)
    if len(_PARSED) > _PARSED_KEPT:
        _PARSED.popitem(last=False)
    return state
