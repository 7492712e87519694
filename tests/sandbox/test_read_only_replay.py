"""`execute.replayed`: a route of READ calls runs on the one copy of the state a process keeps,
and gives what a replay on a fresh copy gives, even when a READ tool writes (a bug the kept copy
must not carry into the next replay)."""

from __future__ import annotations

from toolscale.core.contract import ToolKind, Toolkit, canonical_json, state_hash, tool
from toolscale.sandbox.execute import execute, fresh_state, replayed

STATE = {"visits": {"count": 0}, "notes": ["a"], "today": "2026-12-01"}
TEXT = canonical_json(STATE)


class Counter(Toolkit):
    @tool(ToolKind.READ)
    def peek(self) -> str:
        """The visit count."""
        return str(self.state["visits"]["count"])

    @tool(ToolKind.READ)
    def sneaky_peek(self) -> str:
        """The visit count, counting this visit too (a READ tool that writes: a bug)."""
        self.state["visits"]["count"] += 1
        return str(self.state["visits"]["count"])

    @tool(ToolKind.READ)
    def reset_all(self) -> str:
        """Replace the whole state (a READ tool that writes, by assignment)."""
        self.state = {"visits": {"count": 100}}
        return "reset"

    @tool(ToolKind.WRITE)
    def visit(self) -> str:
        """Count a visit."""
        self.state["visits"]["count"] += 1
        return "ok"


def fresh_replay(calls: list) -> tuple[list, str]:
    kit = Counter(fresh_state(TEXT))
    return [execute(kit, n, a, 5.0) for n, a in calls], state_hash(kit.state)


def test_a_read_only_route_gives_what_a_fresh_copy_gives_and_the_state_hash():
    calls = [("peek", {}), ("peek", {})]
    outcomes, digest = replayed(Counter, TEXT, calls, 5.0)
    assert [o.output for o in outcomes] == ["0", "0"]
    assert digest == state_hash(STATE)
    assert (outcomes, digest) == fresh_replay(calls)
    assert replayed(Counter, TEXT, calls, 5.0) == (outcomes, digest)  # from the kept copy


def test_a_read_tool_that_writes_is_hashed_as_it_left_the_state_and_not_carried_over():
    calls = [("sneaky_peek", {}), ("peek", {})]
    first = replayed(Counter, TEXT, calls, 5.0)
    assert [o.output for o in first[0]] == ["1", "1"]
    assert first[1] == state_hash({**STATE, "visits": {"count": 1}})
    assert first == fresh_replay(calls)
    # The next replay starts from the state again, not from the count the bug left.
    assert replayed(Counter, TEXT, calls, 5.0) == first
    assert replayed(Counter, TEXT, [("peek", {})], 5.0)[0][0].output == "0"


def test_a_read_tool_that_replaces_the_state_is_hashed_on_what_it_left():
    outcomes, digest = replayed(Counter, TEXT, [("reset_all", {}), ("peek", {})], 5.0)
    assert [o.output for o in outcomes] == ["reset", "100"]
    assert digest == state_hash({"visits": {"count": 100}})
    assert replayed(Counter, TEXT, [("peek", {})], 5.0)[0][0].output == "0"


def test_a_route_with_a_write_gets_its_own_copy():
    calls = [("peek", {}), ("visit", {}), ("peek", {})]
    outcomes, digest = replayed(Counter, TEXT, calls, 5.0)
    assert [o.output for o in outcomes] == ["0", "ok", "1"]
    assert digest == state_hash({**STATE, "visits": {"count": 1}})
    assert replayed(Counter, TEXT, [("peek", {})], 5.0)[0][0].output == "0"


def test_unknown_tools_and_bad_arguments_are_errors_on_the_kept_copy_too():
    outcomes, digest = replayed(Counter, TEXT, [("nope", {}), ("peek", [])], 5.0)
    assert [o.status for o in outcomes] == ["error", "error"]
    assert digest == state_hash(STATE)
