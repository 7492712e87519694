"""What a domain tells the judge: the hooks the verifier's checks ask (`toolscale.judge.checks`),
with their defaults, and the formulas a domain declares.

`Domain` (`toolscale.core.contract`) inherits them; a domain overrides the ones it judges its
own way (the kit's domains: evidence, consent, refusal reasons, figures and formulas; tau2's
adapter: required facts read in the whole conversation, as tau2's communicate check reads them).
Every hook is a pure function of its arguments: nothing here runs a tool or keeps state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol

from toolscale.core.answers import answer_matches, fact_stated
from toolscale.core.scenario import UserScenario

Looked = tuple[str, Any, str]  # a successful call: (tool, parsed arguments, result text)


class Formula(Protocol):
    """A rule a domain computes amounts by (a fee rate, a refund share), declared once: its
    policy text, its tools and the figures check read the same object
    (`toolscale.kit.formulas`). `amounts` are every amount, in cents, that it makes of one
    amount: its parts and its result (a 2.50 + 1% fee on 251.00 makes 2.51 and 5.01)."""

    @property
    def name(self) -> str: ...

    def amounts(self, cents: int) -> Iterable[int]: ...


class JudgingHooks:
    """The judge's questions to a domain, each answered "nothing wrong" by default."""

    # Whether the verifier rejects an amount, count or date the agent tells the caller that
    # nothing it was shown backs (`toolscale.judge.figures`): the kit's domains do; tau2's
    # adapter does not, so that its verdicts stay tau2's evaluator's.
    checks_figures: ClassVar[bool] = False
    # The formulas the domain's tools compute amounts by; an amount one of them makes of a
    # shown amount is backed (`toolscale.judge.figures`).
    formulas: ClassVar[tuple[Formula, ...]] = ()

    def check_answer(self, expected: str, final_message: str) -> bool:
        """Whether `final_message` states the expected answer (orchestration domains)."""
        return answer_matches(expected, final_message)

    def missing_facts(self, facts: list[str], final_answer: str, said: list[str]) -> list[str]:
        """The required facts the attempt did not state: by default those missing from its final
        answer (`fact_stated`); `said` holds every assistant message, for domains that judge the
        whole conversation (tau2's communicate check does). An earlier message that states a
        fact counts too where the domain says the fact was `established` by then."""
        return [fact for fact in facts if not fact_stated(fact, final_answer)]

    def established(
        self,
        fact: str,
        scenario: UserScenario | None,
        looked: list[Looked],
        gold: list[dict[str, Any]],
    ) -> bool:
        """Whether the calls made so far (`looked`) establish `fact`, so that an agent message
        after them that states it counts (`toolscale.judge.facts`); by default never (only the
        final answer counts). A domain on the kit: the caller's own facts at once, the others
        after the look-up that shows them (`toolscale.kit.evidence.established`)."""
        return False

    def evidence_problems(
        self,
        facts: list[str],
        scenario: UserScenario | None,
        looked: list[Looked],
        gold: list[dict[str, Any]],
    ) -> list[str]:
        """Why an attempt's required facts are not backed by its look-ups (`looked`: its
        successful calls; `gold`: the task's gold actions); nothing by default. A domain on the
        kit requires a fact the caller did not give to come from a look-up
        (`toolscale.kit.evidence`)."""
        return []

    def refusal_problems(self, template: str, final_answer: str, records: list[str]) -> list[str]:
        """Why the reason an attempt's final answer gives for a refusal is not the task's
        (`template`: the task's template; `records`: its tool results); nothing by default. A
        domain on the kit rejects one that cites another of its policy rules
        (`toolscale.kit.cited`)."""
        return []

    def consent_problems(
        self, scenario: UserScenario | None, turns: Sequence[tuple[str, str, Sequence[str]]]
    ) -> list[str]:
        """Why an attempt's changes were not agreed to (`turns`: each message as (role, text,
        names of the tools it calls)); nothing by default. A domain on the kit requires the
        caller's yes before every write of a conversation (`toolscale.kit.consent`)."""
        return []
