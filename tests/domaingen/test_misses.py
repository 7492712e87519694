"""A template that finds nothing says why (toolscale.kit.misses): the entity, record, condition
or table, as a model repairing its domain needs it (issue 47: "found nothing to work on in 20
draws" with no cause cost an author two wrong guesses and a deleted goal)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.domaingen.fixtures.bike_rental import ENTITIES, GOALS, BikeRentalDomain, world
from tests.domaingen.fixtures.bike_rental.tools import BikeRentalTools
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Entity, Goal, KitError, Record


def _goal(name: str) -> Goal:
    return next(g for g in GOALS if g.name == name)


def _nothing(domain: BikeRentalDomain, template: str) -> str:
    with pytest.raises(KitError) as caught:
        domain.sample_named(random.Random(3), 0, 0, template)
    return str(caught.value)


class OpenTimesTools(BikeRentalTools):
    @tool(ToolKind.READ)
    def get_open_times(self) -> Record:
        """The hours the docks open and close. Changes nothing."""
        return {"opens": "06:00", "closes": "23:00"}


class OpenTimes(BikeRentalDomain):
    """A question on no record (`needs=()`) whose answer the policy already states."""

    toolkit = OpenTimesTools
    policy = BikeRentalDomain.policy + "\n- The docks open at 06:00 and close at 23:00.\n"
    goals = (
        *GOALS,
        Goal(
            "open_times",
            "get_open_times",
            (),
            words="when the docks open and close | what hours the docks keep",
            done="The docks open at {opens} and close at {closes}.",
            motives="I ride early. | I work late.",
        ),
    )


def test_a_question_the_policy_answers_names_the_facts_the_policy_states() -> None:
    message = _nothing(OpenTimes(), "open_times")
    assert message.startswith("template open_times found nothing to work on in 20 draws: 60 of ")
    assert "'06:00' is stated in the policy; '23:00' is stated in the policy" in message


def test_the_same_question_with_its_answer_unsaid_samples() -> None:
    """The goal on no record itself is fine: `needs=()` samples once the policy is silent."""

    class Silent(OpenTimes):
        policy = BikeRentalDomain.policy

    spec = Silent().sample_named(random.Random(3), 0, 0, "open_times")
    assert [a.name for a in spec.gold_actions] == ["get_open_times"]


def test_a_when_that_never_holds_is_named_with_its_source() -> None:
    class Never(BikeRentalDomain):
        goals = (
            *GOALS[:4],
            replace(_goal("get_rental"), when=lambda d: d["rental"]["date"] > "2999-01-01"),
        )

    message = _nothing(Never(), "get_rental")
    assert "60 of 60 draws: no drawn record fits goal get_rental's `when` lambda d: " in message
    assert "> \"2999-01-01\" (one drawn rental: {'rental_id': 'BR" in message


def test_an_entity_only_its_owner_lists_needs_alike() -> None:
    class NoFinder(BikeRentalTools):
        get_rental = None  # no finder by id: the owner's lister is the only route

    bare = tuple(
        Entity("rental", owner="customer", describe=e.describe) if e.name == "rental" else e
        for e in ENTITIES
    )

    class Listed(BikeRentalDomain):
        toolkit = NoFinder
        entities = bare
        goals = (_goal("cancel_rental"),)

    message = _nothing(Listed(), "cancel_rental")
    assert (
        "rental has no finder, and its owner's lister list_customer_rentals cannot single one "
        "out: Entity 'rental' declares no `alike`" in message
    )


def test_an_empty_table_is_named() -> None:
    class Empty(BikeRentalDomain):
        goals = (_goal("get_rental"), _goal("search_stations"))

        def build_world(self, rng: random.Random) -> dict:
            return {**world.build_world(rng), "rentals": {}}

    message = _nothing(Empty(), "get_rental")
    assert message.endswith("60 of 60 draws: the world has no rental records "
                            "(world['rentals'] is empty or missing)")  # fmt: skip


def test_a_refusal_its_records_never_break_names_what_the_check_did() -> None:
    class Lenient(BikeRentalDomain):
        goals = (replace(_goal("extend_rental"), when=lambda d: d["rental"]["hours"] == 1),)

    found = _nothing(Lenient(), "extend_rental.no.too_long")
    assert "its check passes: the drawn records break no rule, not TooLong" in found
