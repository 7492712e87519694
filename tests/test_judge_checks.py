"""Judging is a named list of checks (issue 46): the list runs in order; a required fact counts
in any agent message once a look-up established it, never when only asked back or said before
the look-up; JSON fields other than money and days listed before a dated day are no unbacked
amounts; a domain's declared formulas back the amounts they make; a multi-goal task drops the
facts a later goal made stale. Conversations are written by hand around real bank tasks."""

from __future__ import annotations

import asyncio

from domains.bank import rules
from toolscale.core.contract import canonical_json, state_hash
from toolscale.core.records import Message
from toolscale.core.registry import get_domain
from toolscale.judge.checks import CHECKS, first_failure
from toolscale.judge.figures import unbacked_figures
from toolscale.judge.seen import Seen
from toolscale.judge.verify import outcome_problems
from toolscale.kit.formulas import Rate
from toolscale.kit.stale import fresh_facts, stale
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sample.tasks import SampledTask, build_task
from toolscale.sandbox.execute import execute, fresh_toolkit


def fee_question() -> SampledTask:
    """A gold customer asks the fee on a 60.00 transfer: 1.00 + 0.5% of 60.00 = 1.30."""
    return build_task(get_domain("bank"), 0, 0, 5.0, template="transfer_fee")


def talk(item: SampledTask, turns: list[tuple[str, str]]) -> Transcript:
    """An attempt from hand-written turns: ("agent", text), ("user", text), or ("calls", "")
    for the gold calls; the last agent turn is the final answer."""
    task = item.task
    draft = open_draft(task, "test", 0)
    kit = fresh_toolkit(get_domain(task.domain), canonical_json(task.initial_state))
    for role, text in turns[:-1]:
        if role == "calls":
            for action in task.gold_actions:
                outcome = execute(kit, action["name"], action["arguments"], 5.0)
                record_call(draft, task, action["name"], action["arguments"], outcome)
        else:
            draft.messages.append(
                Message(role="assistant" if role == "agent" else role, content=text)
            )
    return close_draft(draft, turns[-1][1], state_hash(kit.state))


def test_the_checks_run_in_their_stage_order() -> None:
    names = [c.name for c in CHECKS]
    assert names[:3] == ["format", "execution", "grounding"]
    assert names.index("state") < names.index("required facts") < names.index("figures")
    stages = [c.stage for c in CHECKS]
    assert stages == sorted(stages, key=["format", "execution", "grounding", "outcome"].index)


def test_a_sign_off_after_the_fact_loses_nothing() -> None:
    item = fee_question()
    assert item.task.required_facts == ["1.30"]
    attempt = talk(
        item,
        [
            ("calls", ""),
            ("agent", "As a gold customer you would pay a fee of 1.30 USD on that transfer."),
            ("user", "Thanks, that's all."),
            ("agent", "You're welcome, have a good day!"),
        ],
    )
    assert outcome_problems(item.task, attempt) == []
    seen = Seen(item.task, attempt, get_domain("bank"), replay=False)
    assert asyncio.run(first_failure(seen)) is None


def test_a_fact_asked_back_or_said_before_its_look_up_is_not_told() -> None:
    item = fee_question()
    missing = ["required fact not stated: '1.30'"]
    asked = talk(
        item,
        [
            ("calls", ""),
            ("agent", "Would it be 1.30 USD?"),
            ("user", "No idea."),
            ("agent", "Bye."),
        ],
    )
    assert outcome_problems(item.task, asked) == missing
    guessed = talk(
        item,
        [("agent", "The fee is 1.30 USD."), ("user", "OK."), ("calls", ""), ("agent", "Bye.")],
    )
    assert outcome_problems(item.task, guessed) == missing
    # the same words after the look-up are told
    told = talk(
        item,
        [("calls", ""), ("agent", "The fee is 1.30 USD."), ("user", "OK."), ("agent", "Bye.")],
    )
    assert outcome_problems(item.task, told) == []


def test_json_fields_other_than_money_state_no_figure() -> None:
    records = ['{"paid": 45.0, "fee": 5.0, "refund": 40.0}']
    said = 'Your refund is $40.00.\n```json\n{"refund": 40.0, "confidence": 0.97}\n```'
    assert unbacked_figures([said], records) == []
    wrong = 'Your refund is ready.\n```json\n{"refund": 41.0, "confidence": 0.97}\n```'
    assert unbacked_figures([wrong], records) == [
        "stated amount not backed by any record: '$41.00'"
    ]


def test_a_day_listed_before_a_dated_day_is_a_date() -> None:
    records = ['{"nights": ["2025-09-22", "2025-09-24"], "pet": "Rex"}']
    assert unbacked_figures(["Boarding nights on 22 and 24 September."], records) == []
    assert unbacked_figures(["Boarding nights on 21 and 24 September."], records) == [
        "stated date not backed by any record: '21'"
    ]


def test_a_rate_makes_its_share_and_its_fee() -> None:
    standard = rules.TIERS["standard"].external
    assert standard.amounts(25100) == (251, 501)  # 1% of 251.00, and 2.50 + 2.51
    assert standard.of(10**9) == 2500  # capped at 25.00
    assert standard.text() == "2.50 + 1% of the amount, at most 25.00"
    assert Rate("share", 150).text() == "1.5% of the amount"
    assert rules.external_fee("gold", 6000) == 130  # the tools' fee is the rate's
    bank = get_domain("bank")
    assert standard in bank.formulas
    assert standard.text() in bank.policy


def test_an_amount_a_declared_formula_makes_is_backed() -> None:
    records = ['{"account_id": "ACC-1", "amount": 251.0}']
    said = ["Sending $251.00 costs $2.50 plus $2.51 (1%): a $5.01 fee, $256.01 in all."]
    policy = ["External transfer fee: 2.50 + 1% of the amount, at most 25.00"]
    formulas = (rules.TIERS["standard"].external,)
    assert unbacked_figures(said, records, policy, formulas=formulas) == []
    # without the formula the policy's "1%" still makes 2.51 (a stated rate), the fee is the
    # sum of the two parts the message states, and the total the sum of its three; a total no
    # sum of the message's parts makes is not backed
    assert unbacked_figures(said, records, policy) == []
    wrong = [said[0].replace("$256.01", "$257.01")]
    assert unbacked_figures(wrong, records, policy) == [
        "stated amount not backed by any record: '$257.01'",
    ]


def test_the_fee_question_passes_with_the_fee_worked_out() -> None:
    item = fee_question()
    attempt = talk(
        item,
        [
            ("calls", ""),
            ("agent", "The fee is 1.00 USD plus 0.30 USD (0.5% of 60.00 USD): 1.30 USD."),
        ],
    )
    assert outcome_problems(item.task, attempt) == []


def test_a_fact_a_later_goal_made_stale_is_dropped() -> None:
    then = {"accounts": {"A1": {"balance": 900.0}}, "transfers": {"T1": {"fee": 5.01}}}
    end = {
        "accounts": {"A1": {"balance": 650.0}},
        "transfers": {"T1": {"fee": 5.01}, "T2": {"fee": 3.5}},
    }
    assert stale("900.00", then, end)  # the balance between the two transfers
    assert not stale("5.01", then, end)  # the first transfer's fee still holds
    assert not stale("T1", then, end)
    assert not stale("2.50", then, end)  # a quote the state never held: tied to its step
    assert fresh_facts(["5.01", "900.00", "T1"], then, end) == ["5.01", "T1"]


def test_no_bank_multi_task_requires_a_balance_its_second_goal_changed() -> None:
    bank = get_domain("bank")
    for index in range(8):
        item = build_task(bank, 0, index, 5.0, template="multi")
        balances = {
            f"{a['balance']:.2f}"
            for a in item.task.initial_state["accounts"].values()
            if isinstance(a, dict) and "balance" in a
        }
        kit = fresh_toolkit(bank, canonical_json(item.task.initial_state))
        for action in item.task.gold_actions:
            execute(kit, action["name"], action["arguments"], 5.0)
        end = {f"{a['balance']:.2f}" for a in kit.state["accounts"].values()}
        required = {f"{float(f):.2f}" for f in item.task.required_facts if f[0].isdigit()}
        # a balance required is the account's balance at the end (or one it never left)
        assert not (required - end - balances) & _between(bank, item), (index, required)


def _between(bank: object, item: SampledTask) -> set[str]:
    """The balances an account held between the task's gold calls (none at its start or end)."""
    kit = fresh_toolkit(bank, canonical_json(item.task.initial_state))  # type: ignore[arg-type]
    seen: set[str] = set()
    for action in item.task.gold_actions:
        execute(kit, action["name"], action["arguments"], 5.0)
        seen |= {f"{a['balance']:.2f}" for a in kit.state["accounts"].values()}
    end = {f"{a['balance']:.2f}" for a in kit.state["accounts"].values()}
    return seen - end
