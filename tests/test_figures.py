"""Stated figures must be true (`toolscale.judge.figures`): an amount, count or date the agent
tells the caller that no record, caller message or obvious sum backs is named in the reason;
the same figures in other formats, and a total of two record amounts, pass."""

from __future__ import annotations

from toolscale.core.registry import get_domain
from toolscale.judge.figures import unbacked_figures

ORDER = (
    '{"order_id": "O1", "placed_on": "2025-09-13", "items": [{"name": "Tent", "price": 185.99}, '
    '{"name": "Vest", "price": 101.99}], "shipping": 9.5, "refunded": 0.0}'
)
CALLER = "Hi, I want to return the tent from my order of two items."
POLICY = "Items can be returned within 30 days of delivery. Today is 2025-09-20."


def problems(said: str) -> list[str]:
    return unbacked_figures([said], [CALLER, ORDER], [POLICY])


def test_a_wrong_amount_or_date_is_named() -> None:
    assert problems("Your refund of $192.99 is on its way.") == [
        "stated amount not backed by any record: '$192.99'"
    ]
    assert problems("Your order was placed on 16 September.") == [
        "stated date not backed by any record: '16 september'"
    ]
    assert problems("Your order of 2025-09-13 holds 5 items.") == [
        "stated amount not backed by any record: '5'"
    ]


def test_the_records_figures_in_any_format_pass() -> None:
    assert problems("The tent cost $185.99; you ordered it on Saturday 13 September.") == []
    assert problems("Refund: 185.99 USD for the order of Sep 13, 2025 (2 items).") == []
    assert problems('{"answer": "The refund is 185.99.", "confidence": 0.9}') == []


def test_obvious_derivations_pass() -> None:
    # 185.99 + 101.99 = 287.98; 185.99 - 9.50 = 176.49; 2 x 101.99 = 203.98; 30 days on.
    assert problems("Your two items came to $287.98.") == []
    assert problems("After the $9.50 shipping you get 176.49 back.") == []
    assert problems("Two vests would be 203.98.") == []
    assert problems("You can return it until 13 October 2025.") == []


def test_a_date_a_few_days_off_or_two_policy_amounts_are_not_derived() -> None:
    assert problems("It was placed on 2025-09-16.") == [
        "stated date not backed by any record: '2025-09-16'"
    ]
    # 30 and 20 of the policy are no amounts, and "7.00" is not "year 7"
    assert unbacked_figures(["The fee is 7.00."], ['{"year": 7}'], [POLICY]) == [
        "stated amount not backed by any record: '7.00'"
    ]


def test_times_ids_names_and_list_numbers_are_no_figures() -> None:
    said = "1. Order O1 at 7:30 pm, sent to 89 Tracy Fort; ticket TK22071 at 19:30."
    assert problems(said) == []


def test_the_kits_domains_check_figures_and_others_do_not() -> None:
    assert get_domain("bank").checks_figures and get_domain("weather").checks_figures
    assert not get_domain("math").checks_figures


def test_a_house_number_before_a_street_named_like_a_month_is_no_figure() -> None:
    assert problems("Your addresses: 137 Martinez Lock and 8 Moore Course.") == []
