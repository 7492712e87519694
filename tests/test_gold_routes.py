"""Running a route the domain calls correct: a call that does not succeed, or a READ call that
changes the state wherever it comes in the route, is a GoldError naming the tool."""

from __future__ import annotations

import json

import pytest

from toolscale.core.contract import Action, ToolKind, Toolkit, tool
from toolscale.sample.tasks import GoldError, run_route


class LateWriter(Toolkit):
    @tool(ToolKind.WRITE)
    def add(self, amount: int) -> str:
        """Add to the counter.

        Args:
            amount: How much.
        """
        self.state["counter"] += amount
        return str(self.state["counter"])

    @tool(ToolKind.READ)
    def read(self) -> str:
        """Read the counter; past 10 it also writes, which a READ tool must not do."""
        if self.state["counter"] > 10:
            self.state["seen"] = True
        return str(self.state["counter"])

    @tool(ToolKind.GENERIC)
    def broken(self) -> str:
        """Crash."""
        return str({}["missing"])


def route(*names: str) -> list[Action]:
    return [Action(n, {"amount": 1} if n == "add" else {}) for n in names]


def test_pure_reads_and_writes_run_and_return_every_outcome():
    outcomes = run_route(LateWriter({"counter": 5}), route("read", "read", "add", "read"), 5)
    assert [o.output for o in outcomes] == ["5", "5", "6", "6"]


@pytest.mark.parametrize(
    "names", [("add", "read"), ("read", "add", "read"), ("add", "add", "read")]
)
def test_a_read_that_writes_after_a_write_is_caught(names):
    with pytest.raises(GoldError, match=r"^READ tool read changed the state"):
        run_route(LateWriter({"counter": 10}), route(*names), 5)


class SecondReadWrites(LateWriter):
    @tool(ToolKind.READ)
    def read(self) -> str:
        """Read the counter; the second call on this state also writes."""
        self.reads = getattr(self, "reads", 0) + 1
        if self.reads == 2:
            self.state["seen"] = True
        return str(self.state["counter"])


def test_a_read_that_writes_after_another_read_is_caught():
    # The first read's hash is reused as the second's "before": it must still catch the change.
    with pytest.raises(GoldError, match=r"^READ tool read changed the state"):
        run_route(SecondReadWrites({"counter": 0}), route("read", "read"), 5)


def test_a_crashed_gold_call_carries_the_tools_traceback():
    with pytest.raises(GoldError, match=r"^gold action broken crashed") as raised:
        run_route(LateWriter({"counter": 0}), route("broken"), 5)
    assert "KeyError: 'missing'" in raised.value.traceback


class TextFingerprint(LateWriter):
    """A toolkit whose fingerprint is its state's JSON as written (key order included), as a
    tau2 toolkit's is its database's JSON."""

    def fingerprint(self) -> str:
        return json.dumps(self.state)

    @tool(ToolKind.READ)
    def reorder(self) -> str:
        """Read the counter, moving its key to the end: the text changes, the state does not."""
        self.state["counter"] = self.state.pop("counter")
        return str(self.state["counter"])


def test_a_text_fingerprint_catches_a_read_that_writes():
    with pytest.raises(GoldError, match=r"^READ tool read changed the state"):
        run_route(TextFingerprint({"counter": 10}), route("add", "read"), 5)


def test_a_text_fingerprint_that_changes_only_in_key_order_is_no_write():
    kit = TextFingerprint({"counter": 1, "other": 2})
    outcomes = run_route(kit, route("reorder", "read"), 5)
    assert [o.output for o in outcomes] == ["1", "1"]
    assert list(kit.state) == ["other", "counter"]
