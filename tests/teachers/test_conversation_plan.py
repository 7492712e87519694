"""`plan_conversation`: where the reference agent asks for a detail no argument shows (which of
two orders the caller means)."""

from __future__ import annotations

from toolscale.core.contract import Action, ToolKind, ToolPrice, ToolSpec
from toolscale.core.scenario import UserScenario
from toolscale.dialogue.conversation import plan_conversation

READS = ("find_customer_by_email", "list_customer_orders", "get_return_quote")
SPECS = {n: ToolSpec(n, ToolKind.READ, ToolPrice()) for n in READS}
SPECS["return_item"] = ToolSpec("return_item", ToolKind.WRITE, ToolPrice())
FIND = Action("find_customer_by_email", {"email": "ann@example.net"})
LIST = Action("list_customer_orders", {"customer_id": "K1"})
QUOTE = Action("get_return_quote", {"order_id": "O7", "variant_id": "V3"})
RETURN = Action("return_item", {"order_id": "O7", "variant_id": "V3"})
SCENARIO = UserScenario(
    reason_for_call="a refund",
    opening="How much would I get back for the throw?",
    known={"email": "ann@example.net", "order date": "2025-08-17"},
)


def shape(steps: list) -> list[str]:
    return [
        f"ask {', '.join(s.ask)}"
        if s.ask
        else f"{'confirm' if s.confirm else 'call'} {(s.confirm or s.call).name}"
        for s in steps
    ]


def test_without_a_change_the_detail_is_asked_before_the_first_call_on_a_found_record():
    # K1 comes from the email look-up, not from the caller: the order date is asked before the
    # orders are listed (before, it came after the quote, just before the answer).
    assert shape(plan_conversation(SCENARIO, [FIND, LIST, QUOTE], SPECS)) == [
        "ask email",
        "call find_customer_by_email",
        "ask order date",
        "call list_customer_orders",
        "call get_return_quote",
    ]


def test_a_value_the_caller_gave_is_not_a_found_record():
    known = {"customer id": "K1", "order date": "2025-08-17"}
    scenario = SCENARIO.model_copy(update={"known": known})
    assert shape(plan_conversation(scenario, [LIST, QUOTE], SPECS)) == [
        "ask customer id",
        "call list_customer_orders",
        "ask order date",
        "call get_return_quote",
    ]


def test_with_a_change_the_detail_is_asked_before_the_first_change_as_before():
    steps = plan_conversation(SCENARIO, [FIND, LIST, QUOTE, RETURN], SPECS)
    assert shape(steps) == [
        "ask email",
        "call find_customer_by_email",
        "call list_customer_orders",
        "call get_return_quote",
        "ask order date",
        "confirm return_item",
        "call return_item",
    ]
