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
from types import MethodType
from typing import Any, cast

from jsonschema import Draft202012Validator

from toolscale.core.contract import Domain, ToolError, ToolKind, Toolkit, state_hash, tool_text
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
    # The policy rule an error names (a kit `PolicyError`'s `rule`, "handoff:" before a rule
    # whose cases go to a human), "" for any other outcome: what a synthesized refusal tests.
    rule: str = ""
    # The record values that error says prove its rule applies (a kit `PolicyError`'s `shows`):
    # the reason a synthesized refusal must state, as the kit's refusals do.
    shows: tuple[str, ...] = ()


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
    # A class is hashable; mypy 2.4 reads its unbound __hash__ against Hashable.
    found = validator(toolkit, name)  # type: ignore[arg-type]
    return [e.message for e in found.iter_errors(arguments)]


def execute(kit: Toolkit, name: str, arguments: Any, timeout_s: float) -> CallOutcome:
    """Run `kit.<name>(**arguments)` with a time limit; never raises for what the call did."""
    specs = type(kit).specs()
    if name not in specs:
        return CallOutcome(f"Error: unknown tool {name!r}; available: {', '.join(specs)}", "error")
    problems = argument_errors(type(kit), name, arguments)
    if problems:
        return CallOutcome(f"Error: invalid arguments for {name}: {'; '.join(problems)}", "error")
    kit.usage = None
    crash = rule = ""
    shows: tuple[str, ...] = ()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        output, status = tool_text(getattr(kit, name)(**arguments)), "ok"
    except ToolError as exc:
        output, status = f"Error: {exc}", "error"
        rule = _rule(exc)
        shows = tuple(str(value) for value in getattr(exc, "shows", ()))
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
        return CallOutcome(output, status, traceback=crash, rule=rule, shows=shows)
    return CallOutcome(
        output,
        status,
        usage.model,
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.latency_ms,
        crash,
        rule,
        shows,
    )


def _rule(error: ToolError) -> str:
    """The rule a policy error names ("already_paid"; "handoff:large_party" for a hand-off);
    "" for a tool error that is no rule's."""
    rule = getattr(error, "rule", "")
    if not isinstance(rule, str) or not rule:
        return ""
    return f"handoff:{rule}" if getattr(error, "handoff", False) else rule


def fresh_toolkit(domain: Domain, state_json: str, own: bool = False) -> Toolkit:
    """A toolkit on a fresh copy of the task's state; `own`: for a route of the domain's own
    (`Toolkit.own_programs`)."""
    kit = domain.toolkit.opened(state_json, fresh_state)
    kit.own_programs = own
    return kit


def replayed(
    toolkit: type[Toolkit], state_json: str, calls: list, timeout_s: float, own: bool = False
) -> tuple[list[CallOutcome], str]:
    """Every call run in order on a fresh copy of the state, and the hash of the state they
    leave: what a replay is. `own`: the calls are a route of the domain's own
    (`Toolkit.own_programs`), never a model's.

    A route whose calls are all READ or GENERIC gets the same outcomes and hash from the one
    copy of the state this process keeps for it (`_Parsed.shared`), without copying the world
    and hashing it again: afterwards the copy is packed, and equal bytes mean the state is as it
    was (its hash known). When they differ (a READ tool that writes, a call cut off by its time
    limit, a tool that replaced `self.state`) the state left is hashed and the kept copy dropped,
    so the next replay starts from the state again. A toolkit that opens its state itself (tau2's)
    always gets a fresh copy."""
    # A classmethod read from a class is a method bound to it: compare the functions.
    opened = cast(MethodType, toolkit.opened).__func__
    opens_itself = opened is not cast(MethodType, Toolkit.opened).__func__
    shared = None if opens_itself or not _reads_only(toolkit, calls) else _parsed(state_json)
    kit = (
        toolkit.opened(state_json, fresh_state) if shared is None else toolkit(shared.shared_copy())
    )
    kit.own_programs = own
    outcomes = [execute(kit, name, arguments, timeout_s) for name, arguments in calls]
    return outcomes, state_hash(kit.state) if shared is None else shared.hash_after(kit.state)


def _reads_only(toolkit: type[Toolkit], calls: list) -> bool:
    specs = toolkit.specs()
    return all(
        name not in specs or specs[name].kind in (ToolKind.READ, ToolKind.GENERIC)
        for name, _ in calls
    )


class _Parsed:
    """A state parsed in this process: packed (`toolscale.core.packing`), so that a fresh copy is
    unpacked instead of parsed again (a world of a few hundred kilobytes: ~1 ms instead of ~3 ms),
    and, once a route that only reads has run on it, one unpacked copy kept for such routes with
    its packed bytes and its hash (a world of ~250 KB packed is ~1.5 MB parsed: at most
    `_PARSED_KEPT` of them, ~50 MB, in a worker)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.packed = pack(state)
        self._unused: dict[str, Any] | None = state  # handed out as the first fresh copy
        self.shared: dict[str, Any] | None = None
        self.shared_packed = b""
        self.digest = ""

    def fresh(self) -> dict[str, Any]:
        """A new copy of the state, for the caller to change."""
        if self._unused is not None:
            state, self._unused = self._unused, None
            return state
        return unpack(self.packed)

    def shared_copy(self) -> dict[str, Any]:
        if self.shared is None:
            self.shared = self.fresh()
            self.shared_packed = pack(self.shared)  # the bytes it packs to while unchanged
        return self.shared

    def hash_after(self, state: dict[str, Any]) -> str:
        """The hash of `state`, what a route left of `shared`; the copy is dropped unless it is
        unchanged."""
        if state is self.shared and pack(state) == self.shared_packed:
            if not self.digest:
                self.digest = state_hash(state)
            return self.digest
        self.shared = None
        return state_hash(state)


# States parsed in this process, by their JSON: a task's state arrives once per route and once
# per attempt's replay.
_PARSED: OrderedDict[str, _Parsed] = OrderedDict()
_PARSED_KEPT = 32  # about the tasks a worker serves at once


def _parsed(state_json: str) -> _Parsed:
    parsed = _PARSED.get(state_json)
    if parsed is not None:
        _PARSED.move_to_end(state_json)
        return parsed
    parsed = _PARSED[state_json] = _Parsed(json.loads(state_json))
    if len(_PARSED) > _PARSED_KEPT:
        _PARSED.popitem(last=False)
    return parsed


def fresh_state(state_json: str) -> dict[str, Any]:
    """A new object equal to `json.loads(state_json)`, types included, for the caller to change."""
    return _parsed(state_json).fresh()
