"""The hostile-argument catalogue: every call it makes passes the tool's schema (so it reaches
the tool's code), varies one parameter from a route's valid call, respects the limit, and is the
same for the same seed."""

from __future__ import annotations

import math
import random

from domains.bank.tools import BankTools
from toolscale.check.hostile import calls, plausible_ids, schema_base, values
from toolscale.sandbox.execute import argument_errors

BASE = {"from_account_id": "ACC-12345678", "destination_id": "PAY-1", "amount": 250.0}


def test_every_call_is_schema_valid_and_changes_one_parameter():
    found = calls(BankTools, "transfer_funds", BASE, 1000, random.Random(0))
    assert found and all(not argument_errors(BankTools, c.tool, c.arguments) for c in found)
    for call in found:
        changed = [k for k in BASE if call.arguments[k] is not BASE[k]]
        assert changed == [call.parameter]
    amounts = [c.arguments["amount"] for c in found if c.parameter == "amount"]
    assert any(isinstance(a, float) and math.isnan(a) for a in amounts)
    assert 2**63 in amounts and float("inf") in amounts
    labels = {c.label for c in found if c.parameter == "destination_id"}
    assert {"empty", "huge", "lone_surrogate", "id_digit_off", "bomb_0"} <= labels


def test_an_integer_parameter_gets_no_float_and_an_enum_only_its_values():
    limits = [v for _, v in values({"type": "integer"})]
    assert all(isinstance(v, int) for v in limits)
    found = calls(BankTools, "block_card", {"card_id": "CARD-1A2B3C", "reason": "lost"}, 1000,
                  random.Random(0))  # fmt: skip
    assert {c.parameter for c in found} == {"card_id"}  # no other reason is schema-valid


def test_the_draw_is_deterministic_and_bounded():
    first = calls(BankTools, "transfer_funds", BASE, 10, random.Random("fuzz:bank:0"))
    again = calls(BankTools, "transfer_funds", BASE, 10, random.Random("fuzz:bank:0"))
    other = calls(BankTools, "transfer_funds", BASE, 10, random.Random("fuzz:bank:1"))
    assert len(first) == 10 and [c.label for c in first] == [c.label for c in again]
    assert [c.label for c in first] != [c.label for c in other]


def test_plausible_ids_and_plain_arguments():
    assert dict(plausible_ids("ACC-19")) == {
        "id_lower": "acc-19",
        "id_padded": "  ACC-19\t",
        "id_cut": "ACC-1",
        "id_doubled": "ACC-19ACC-19",
        "id_digit_off": "ACC-10",
    }
    assert schema_base(BankTools, "block_card") == {"card_id": "x", "reason": "lost"}
    assert schema_base(BankTools, "list_recent_transactions") == {"account_id": "x"}
