"""A refusal gives its own reason (`toolscale.kit.cited`): a refusing sentence that cites another
of the domain's policy rules fails, unless the records describe those words."""

from __future__ import annotations

from toolscale.core.answers import fact_stated
from toolscale.core.registry import get_domain
from toolscale.kit.cited import cited_rules, rule_of
from toolscale.sample.stored import template

RULES = ["final_sale", "already_returned", "not_delivered", "free_plan"]
ITEM = '{"order_id": "O1", "status": "delivered", "items": [{"name": "Tent", "status": "ok"}]}'
PLAN = '{"account_id": "AC1", "plan": "Free", "alerts": 2}'


def test_a_refusal_for_another_rule_is_named() -> None:
    said = "I've checked. I'm sorry, I can't do that: final sale. For your records: O1."
    assert cited_rules("already_returned", RULES, said, [ITEM]) == ["final_sale"]
    assert rule_of("return.no.already_returned") == "already_returned"
    assert rule_of("accessible") == ""  # a hand-off of no rule: every rule is another's


def test_its_own_rule_or_words_the_records_describe_are_no_citation() -> None:
    said = "I'm sorry, I can't return it: the Tent was already returned."
    assert cited_rules("already_returned", RULES, said, [ITEM]) == []
    # "Free plan" describes the account's plan: a correct alert-limit refusal
    said = "I'm sorry, I can't set that up: the Free plan allows 2 active alerts."
    assert cited_rules("alert_limit", RULES, said, [PLAN]) == []
    # round K: the plan the caller asks for, found by name, is the "Free plan" too; another
    # record's name is no plan
    said = "I'm sorry, I can't move you to the Free plan: you used 22,253 calls of its 1,000."
    found = '{"plan_id": "AP1", "name": "Free", "quota": 1000}'
    assert cited_rules("over_quota", RULES, said, [found]) == []
    person = '{"account_id": "AC1", "name": "Free", "plan": "Pro"}'
    assert cited_rules("over_quota", RULES, said, [person]) == ["free_plan"]
    # a sentence that refuses nothing cites nothing
    assert cited_rules("", RULES, "Your order is final sale stock, now delivered.", [ITEM]) == []


def test_the_kits_domains_judge_a_refusals_reason() -> None:
    domain = get_domain("ecommerce")
    said = "Sorry, I can't do that: out of stock."
    assert domain.refusal_problems("return.no.final_sale", said, [ITEM]) == [
        "the refusal gives a reason that does not apply: 'out_of_stock'"
    ]
    assert domain.refusal_problems("exchange.no.out_of_stock", said, [ITEM]) == []
    assert get_domain("math").refusal_problems("sum", said, []) == []


def test_a_denied_word_is_not_the_fact() -> None:
    assert not fact_stated("active", "I'm sorry, I can't do that: card not active.")
    assert not fact_stated("active", "Your card isn't active.")
    assert not fact_stated("returned", "It was bought as final sale and cannot be returned.")
    assert fact_stated("blocked", "Card CARD-1 is blocked, not active.")
    assert fact_stated("active", "Card CARD-1 is active; only a blocked card is replaced.")
    assert fact_stated("not started", "The class has not started.")


def test_a_refusal_trace_for_another_rule_fails_and_its_own_passes() -> None:
    import asyncio
    from dataclasses import replace

    from toolscale.core.records import Message
    from toolscale.judge.verify import verify
    from toolscale.play.reference import ReferenceTeacher
    from toolscale.sample.tasks import build_task
    from toolscale.sandbox.pool import SandboxPool

    domain = get_domain("ecommerce")
    item = build_task(domain, 0, 0, 15.0, template="return.no.final_sale")

    async def verdicts(finals: list[str]) -> list[tuple[bool, list[str]]]:
        async with SandboxPool(workers=1) as pool:
            gold = (await ReferenceTeacher().attempts(item, pool))[0]
            found = []
            for final in finals:
                said = Message(role="assistant", content=final)
                attempt = replace(gold, messages=[*gold.messages[:-1], said], final_answer=final)
                verdict = await verify(item.task, attempt, pool)
                found.append((verdict.verified, verdict.reasons))
            return found

    own = "I'm sorry, I can't return it: it was bought as final sale and cannot be returned."
    other = "I've checked. I'm sorry, I can't do that: out of stock."
    assert item.task.required_facts == []  # the gold route's look-up is its evidence
    [(passed, _), (failed, reasons)] = asyncio.run(verdicts([own, other]))
    assert passed
    assert not failed and reasons == [
        "the refusal gives a reason that does not apply: 'out_of_stock'"
    ]


def test_a_synthesized_refusals_template_names_its_rule() -> None:
    # S3: a refusal to pay an already paid bill "cited" already_paid, its own rule, because a
    # synthesized task's template named no rule and every rule counted as another's
    assert template({"rule": "already_paid"}) == "synthesized.no.already_paid"
    assert template({"rule": "handoff:term_time_holiday"}) == (
        "synthesized.handoff.term_time_holiday"
    )
    assert template({}) == "synthesized"
    school = get_domain("school")
    said = "I'm sorry, I can't pay it: that bill is already paid."
    assert school.refusal_problems(template({"rule": "already_paid"}), said, []) == []
    assert school.refusal_problems(template({"rule": "class_full"}), said, []) == [
        "the refusal gives a reason that does not apply: 'already_paid'"
    ]
