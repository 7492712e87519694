"""What is computed once and kept gives what computing it again gives (issue 39): the figures
check's readings kept on the rubric, a task priced once by `prepare`, the oracle's rounds
scoring each route once per gold, the math experts' counting done digit by digit instead
of number by number, and each task's tool validators kept for its next attempt."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from dataclasses import dataclass, field

import pytest

from domains.math.programs import _digit_sums, _fib_mod
from toolscale.core.records import Message, RouteScore, Task, ToolCall
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import DEFAULT_SPREAD
from toolscale.economics.prices import Economics
from toolscale.judge.attributed import fields
from toolscale.judge.figures import unbacked_figures
from toolscale.judge.format import format_problems
from toolscale.judge.readings import Readings, reading
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.judge.seen import Seen
from toolscale.judge.shown import shown
from toolscale.judge.validators import Validators
from toolscale.oracle.played import GOLD_OWN, PlayedRoute, _as_gold, _Rounds, play
from toolscale.sample.in_worker import build_named, sample_in
from toolscale.sample.tasks import SampledTask, build_task, prepare
from toolscale.sandbox.pool import SandboxPool

ORDER = '{"order_id": "O1", "placed_on": "2025-09-13", "items": [{"price": 185.99}], "fee": 9}'
RECEIPT = '{"receipt_id": "R9", "order_id": "O1", "refund": 185.99}'
POLICY = "Items can be returned within 30 days of delivery. Today is 2025-09-20."
SAID = [
    "Your refund of $185.99 is on its way; you ordered on 13 September.",
    "The fee is $9 and you can return it until 13 October 2025.",
    "Your refund is $192.99, ordered on 16 September.",
]


def test_kept_readings_give_the_figures_read_afresh() -> None:
    readings = Readings(size=2)  # small: the policy is dropped and read again between calls
    for said in SAID * 2:
        for records in ([ORDER], [ORDER, "two items"], ["71"]):
            fresh = unbacked_figures([said], records, [POLICY])
            assert unbacked_figures([said], records, [POLICY], readings) == fresh
    assert shown([ORDER], [POLICY], Readings()) == shown([ORDER], [POLICY])
    kept = Readings()
    for records in ([ORDER, RECEIPT, "On 2 May I paid."], [RECEIPT, ORDER]):
        assert fields(records, kept.facts) == fields(records)
    # the receipt names O1 and R9, so each id has the order's date
    assert fields([ORDER, RECEIPT]).dates == {
        "o1": frozenset({dt.date(2025, 9, 13)}),
        "r9": frozenset({dt.date(2025, 9, 13)}),
    }


def test_a_reading_is_kept_once_and_reused() -> None:
    readings = Readings()
    first = readings.read(POLICY)
    assert readings.read(POLICY) is first
    assert first == reading(POLICY)
    # 2025-09-20 and the 30 days the policy states
    assert first.full == frozenset({dt.date(2025, 9, 20)})
    assert first.periods == frozenset({(30, "day")})


def test_a_task_priced_once_is_the_task_priced_twice() -> None:
    economics, kit = Economics(tool_dropout=0.3), get_domain("math")
    for index in range(3):
        twice = prepare(build_task(kit, 0, index, 15.0), economics, DEFAULT_SPREAD)
        once = prepare(build_task(kit, 0, index, 15.0, priced=False), economics, DEFAULT_SPREAD)
        assert once == twice
        # what a sandbox worker makes of it under the run's settings
        assert build_named("math", 0, index, None, (economics, DEFAULT_SPREAD), 15.0) == twice


def test_digit_sums_and_fibonacci_count_as_the_programs_do() -> None:
    rng = random.Random(0)
    for n in [1, 9, 10, 99, 100, 1000, *(rng.randint(1, 90000) for _ in range(12))]:
        for s in (1, 5, 13, 20):
            counted = sum(1 for i in range(1, n + 1) if sum(map(int, str(i))) == s)
            assert _digit_sums(n, s) == counted
        for m in (97, 1000, 10007):
            a, b = 1, 1
            for _ in range(n - 1):
                a, b = b, (a + b) % m
            assert _fib_mod(n, m) == a % m
    assert _digit_sums(100, 10) == 9  # 19, 28, ..., 91
    assert _fib_mod(10, 1000) == 55


def _fresh_table(
    task: Task, played: list[PlayedRoute], rubric: Rubric, odds: dict[str, float]
) -> list[RouteScore]:
    """Each route's score computed afresh, no memo (what the oracle's rounds must equal)."""
    rows = []
    for p in played:
        verified = p.verdict.verified
        metrics, labels = rubric.measure(task, p.draft, verified)
        chance = odds.get(p.route.name)
        right = rubric.measure(task, p.draft, True)[1]["reward_total"]
        wrong = rubric.measure(task, p.draft, False)[1]["reward_total"]
        rows.append(
            RouteScore(
                name=p.route.name,
                detour=p.route.detour,
                verified=verified,
                failure_stage=p.verdict.failure_stage,
                compliant=labels["preference_compliant"],
                num_tool_calls=metrics["num_tool_calls"],
                total_cost=metrics["total_cost"],
                total_latency_ms=metrics["total_latency_ms"],
                reward_total=labels["reward_total"],
                p_right=(1.0 if verified else 0.0) if chance is None else chance,
                expected_reward=labels["reward_total"]
                if chance is None
                else chance * right + (1 - chance) * wrong,
            )
        )
    return rows


@pytest.mark.parametrize("domain", ["math", "knowledge"])
def test_the_rounds_scores_are_the_scores_computed_afresh(domain: str) -> None:
    rubric = Rubric(RewardConfig())

    async def run() -> list[tuple[SampledTask, list[PlayedRoute]]]:
        async with SandboxPool(1) as pool:
            found = []
            for index in range(3):
                settings = (Economics(), DEFAULT_SPREAD)
                item = await sample_in(pool, domain, 0, index, settings=settings)
                found.append((item, await play(item, pool, rubric, True)))
            return found

    for item, played in asyncio.run(run()):
        rounds = _Rounds(item.task, played, rubric)
        for chosen in [GOLD_OWN, *range(len(played))]:
            gold = item.task
            if chosen != GOLD_OWN:
                made = rubric.measure(item.task, played[chosen].draft, False)[0]
                gold = _as_gold(item.task, played[chosen], made)
            assert rounds.gold(chosen) == gold
            fresh = _fresh_table(gold, played, rubric, item.route_odds)
            assert rounds.table(chosen, item.route_odds) == fresh


@dataclass
class _Calls:
    """An attempt's calls alone (format_problems reads the conversation too: it is left empty,
    so every attempt also has the conversation's problems, alike with and without validators)."""

    tool_calls: list[ToolCall]
    messages: list[Message] = field(default_factory=list)
    final_answer: str = ""
    final_state_hash: str = ""


def _call(name: str, arguments: str) -> ToolCall:
    return ToolCall(
        id="c1", name=name, arguments=arguments, output="", status="ok", cost=0, latency_ms=0
    )


def test_kept_validators_find_the_format_problems_found_afresh() -> None:
    kit = get_domain("math")
    tasks = [build_task(kit, 0, index, 15.0).task for index in range(2)]
    tasks.append(tasks[0].model_copy(update={"id": ""}))  # a copy shares its list of tools
    tasks.append(tasks[0].model_copy(update={"tools": tasks[0].tools[:1]}))  # a new list
    attempts = [
        _Calls([_call("calculator", '{"expression": "2 + 2"}')]),
        _Calls([_call("calculator", '{"expression": 4}')]),  # not a string
        _Calls([_call("calculator", "{}")]),  # a required argument left out
        _Calls([_call("calculator", "[1]")]),  # not an object
        _Calls([_call("no_such_tool", "{}")]),
    ]
    validators = Validators(size=1)  # small: each task's are dropped and found again
    for _ in range(2):
        for task in tasks:
            for attempt in attempts:
                fresh = format_problems(Seen(task, attempt, kit))
                assert format_problems(Seen(task, attempt, kit, validators=validators)) == fresh
    assert validators.of(tasks[1]) is validators.of(tasks[1])
    assert validators.of(tasks[0]) is validators.of(tasks[2])
    assert list(validators.of(tasks[3])) == [tasks[0].tools[0]["function"]["name"]]
    # the hand-checked problems of the calls above, beside the empty conversation's
    found = [format_problems(Seen(tasks[0], a, kit, validators=validators))[0] for a in attempts]
    assert found[0] == "the conversation's tool calls differ from the recorded calls"
    assert found[1] == "c1: 4 is not of type 'string'"
    assert found[2] == "c1: 'expression' is a required property"
    assert found[3] == "c1: arguments are not a JSON object"
    assert found[4] == "c1: unknown tool 'no_such_tool'"
