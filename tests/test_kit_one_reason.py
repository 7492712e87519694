"""Kit v2: a refusal task tests one rule. A check goes on past a broken rule inside
`collecting()` (`toolscale.kit.broken_rules`), and the composer redraws a refusal whose request also
breaks another rule, whether its goal declares the check or the tool decides; on the tiny
`tests.fixtures.tickets` world half the tickets break both rules."""

from __future__ import annotations

import random

import pytest

from tests.fixtures.tickets import NotActive, SaverFixed, Tickets, TicketsToolDecides, build
from toolscale.core.contract import ToolError
from toolscale.core.ids import template_rng
from toolscale.core.registry import get_domain
from toolscale.kit.broken_rules import reasons, tool_reasons
from toolscale.sample.tasks import build_task

WORLD = build(random.Random(0))
BOTH = "T0"  # used and saver


def test_every_broken_rule_is_found_in_the_order_checked() -> None:
    from tests.fixtures.tickets import check_change

    found = reasons(lambda: check_change(WORLD, BOTH, "17:00"))
    assert found.rules == ("not_active", "saver_fixed") and found.other == ""
    assert found.only() is None
    assert found.described() == "not_active and saver_fixed"
    one = reasons(lambda: check_change(WORLD, "T5", "17:00"))  # used, standard
    assert one.rules == ("not_active",) and isinstance(one.only(), NotActive)
    assert reasons(lambda: check_change(WORLD, "T9", "17:00")).rules == ()  # active, standard
    with pytest.raises(NotActive):  # outside collecting(), the first rule raises as ever
        check_change(WORLD, BOTH, "17:00")


def test_a_plain_refusal_after_a_rule_is_another_reason_and_alone_it_raises() -> None:
    def after(rule_broken: bool) -> None:
        SaverFixed.raise_if(rule_broken, "saver tickets cannot be changed")
        raise ToolError("that train has left")

    found = reasons(lambda: after(True))
    assert found.rules == ("saver_fixed",) and found.other == "that train has left"
    assert found.only() is None
    with pytest.raises(ToolError):
        reasons(lambda: after(False))


def test_a_tool_is_asked_on_a_copy_and_keeps_the_state() -> None:
    arguments = {"ticket_id": "T7", "departure": "17:00"}  # active, saver
    found = tool_reasons(Tickets.toolkit, WORLD, "change_ticket", arguments)
    assert found.rules == ("saver_fixed",)
    assert WORLD["tickets"]["T7"]["departure"] == "09:00"


@pytest.mark.parametrize("domain", [Tickets(), TicketsToolDecides()], ids=["check", "tool"])
@pytest.mark.parametrize(
    ("rule", "kind"),
    [("not_active", ("used", "standard")), ("saver_fixed", ("active", "saver"))],
)
def test_a_refusal_that_would_break_two_rules_is_drawn_again(
    domain: Tickets, rule: str, kind: tuple[str, str]
) -> None:
    template = f"change_ticket.no.{rule}"
    for index in range(10):
        rng = template_rng(domain.name, 0, template, index)
        spec = domain.sample_named(rng, 0, index, template)
        assert spec.refused is not None and spec.refused.name == "change_ticket"
        ticket = spec.initial_state["tickets"][spec.refused.arguments["ticket_id"]]
        assert (ticket["status"], ticket["fare"]) == kind  # never a used saver ticket


def test_a_hand_written_refusal_names_its_call_with_one_reason() -> None:
    """bank's dispute_or_block refuses a dispute as too old, on charges too old and nothing else;
    the built task (what check-domain gets from a worker) keeps the refused call."""
    bank = get_domain("bank")
    seen = 0
    for index in range(10):
        item = build_task(bank, 0, index, 15.0, "dispute_or_block")
        if item.refused is None:
            assert any(a["name"] == "dispute_transaction" for a in item.task.gold_actions)
            continue
        seen += 1
        state, call = item.task.initial_state, item.refused
        found = tool_reasons(bank.toolkit, state, call.name, call.arguments)
        assert found.rules == ("too_old",) and found.other == ""
    assert seen
