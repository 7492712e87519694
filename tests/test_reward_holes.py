"""Rewards without holes: a broken hard constraint never outranks a compliant correct attempt,
`hurry` is judged on latency, and no stateful task is passed without the look-up that establishes
its facts (the parrot of the user's words, a refusal said blind)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict

import pyarrow.parquet as pq
import pytest

from toolscale.core.contract import (
    Action,
    Domain,
    ToolKind,
    Toolkit,
    UserScenario,
    state_hash,
    tool,
)
from toolscale.core.preference import Preference, PreferenceVector
from toolscale.core.registry import get_domain
from toolscale.economics.preferences import within_budget
from toolscale.judge.rewards import RewardConfig, efficiency_reward, preference_reward, total_reward
from toolscale.judge.verify import outcome_problems
from toolscale.kit import Draft, KitError, Request, parrot, sample_task
from toolscale.kit.evidence import missing_evidence
from toolscale.play.transcript import close_draft, open_draft
from toolscale.sample.tasks import SampledTask, build_task, with_preference

pytestmark = pytest.mark.slow  # module fixtures that generate and play outputs

DEFAULT = RewardConfig()


def test_hurry_is_judged_on_latency_the_issue_pair_by_hand():
    # The gold route asks an expert: $0.047, 24.6 s, 1 call; it is the reference and the hurry
    # budget. A two-search route: $0.030, 1.7 s, 2 calls.
    hurry = Preference(
        profile="hurry", instruction="", vector=PreferenceVector(latency=1.0), max_latency_ms=24600
    )
    ref = (0.047, 24600.0)

    def total(calls: int, cost: float, latency: float) -> float:
        quick = within_budget(hurry, calls, 1, latency, cost)
        r_e = efficiency_reward(calls, 0, cost, latency, *ref, DEFAULT)
        return total_reward(1.0, r_e, preference_reward(quick, True, DEFAULT), DEFAULT.weights())

    # expert: 1 - 0.08 - 0.08 + 0.5 = 1.34. Two searches: 1 - 0.08 * 0.030 / 0.047
    # - 0.08 * 1700 / 24600 + 0.5 = 1.4434 (before: counted as 2 calls > 1, slow: 1.0434).
    assert total(1, 0.047, 24600.0) == pytest.approx(1.34)
    assert total(2, 0.030, 1700.0) == pytest.approx(1 - 0.0510638 - 0.0055285 + 0.5, abs=1e-6)
    assert total(2, 0.030, 1700.0) > total(1, 0.047, 24600.0)


# --- the verifier's evidence rule, on plain values ---------------------------------------------


def scenario_of(known: dict[str, str]) -> UserScenario:
    return UserScenario(reason_for_call="You want to know your status.", opening="Hi.", known=known)


def test_a_fact_the_caller_did_not_give_must_come_from_a_look_up():
    scenario = scenario_of({"user id": "U1"})
    facts = ["U1", "frozen"]  # U1 the caller gives; "frozen" only a look-up shows
    gold = [("get_user", {"user_id": "U1"})]
    assert missing_evidence(facts, scenario, [], gold)  # no call at all
    shown = [("get_user", {"user_id": "U1"}, '{"status": "frozen"}')]
    assert missing_evidence(facts, scenario, shown, gold) == []
    # The gold route's look-up, whose result does not spell the fact (a sum made in one's head)
    assert missing_evidence(facts, scenario, [("get_user", {"user_id": "U1"}, "{}")], gold) == []
    # Another look-up that shows nothing of it does not back it.
    assert missing_evidence(facts, scenario, [("get_user", {"user_id": "U2"}, "{}")], gold)
    # Only facts the caller gave: nothing to back.
    assert missing_evidence(["U1"], scenario, [], gold) == []


def test_another_look_up_that_holds_the_gold_reads_record_backs_it():
    # the caller's list of reservations holds RS2 as get_reservation(RS2) would show it
    scenario = scenario_of({"customer id": "C1"})
    gold = [("get_reservation", {"reservation_id": "RS2"})]
    listed = '[{"reservation_id": "RS1", "date": "2025-07-29"}, {"reservation_id": "RS2"}]'
    assert (
        missing_evidence(["30"], scenario, [("list_reservations", {"c": "C1"}, listed)], gold) == []
    )
    # a list without RS2, or a failed look-up (no result), backs nothing
    other = '[{"reservation_id": "RS1"}]'
    assert missing_evidence(["30"], scenario, [("list_reservations", {"c": "C1"}, other)], gold)
    assert missing_evidence(["30"], scenario, [], gold)


# --- the kit's sampling rule, on a tiny domain ---------------------------------------------------


class Users(Toolkit):
    @tool(ToolKind.READ)
    def get_user(self, user_id: str) -> str:
        """Look a user up.

        Args:
            user_id: The user's id.
        """
        return json.dumps(self.state["users"][user_id])


WORLD = {"users": {"U1": {"tier": "gold", "status": "frozen", "since": "2025-03-02"}}}


def draft_with(facts: list[str]) -> Draft:
    return Draft(
        Request(("what is going on with my account",), "know", known={"user id": "U1"}),
        [Action("get_user", {"user_id": "U1"})],
        "Your account U1 (gold) is frozen since 2025-03-02.",
        facts,
        writes=False,
    )


@pytest.mark.parametrize(
    ("facts", "refused"),
    [
        (["U1"], True),  # the caller's own id
        (["gold"], True),  # a tier the policy lists: a guess
        (["standard"], True),  # a stock phrase
        (["2099-01-01"], True),  # in no result of the gold route
        (["gold", "2025-03-02"], False),  # a date only the look-up shows
    ],
)
def test_a_read_only_template_needs_a_fact_only_a_look_up_gives(facts, refused):
    templates = {"status": (lambda rng, world: draft_with(facts), 1)}
    policy = "Tiers are standard, gold and platinum."
    draw = lambda: sample_task(random.Random(0), WORLD, templates, Users, policy)  # noqa: E731
    if refused:
        with pytest.raises(KitError, match="template status"):
            draw()
    else:
        assert draw().required_facts == facts


# --- the parrot and the blind refusal on every template of bank and railway --------------------


def every_template(name: str) -> dict[str, SampledTask]:
    domain: Domain = get_domain(name)
    found: dict[str, SampledTask] = {}
    index = 0
    while set(found) != set(domain.templates) and index < 40 * len(domain.templates):
        item = build_task(domain, 0, index, 5.0)
        found.setdefault(item.task.template, with_preference(item, {"none": 1.0}))
        index += 1
    assert set(found) == set(domain.templates)
    return found


def said_blind(item: SampledTask, text: str) -> list[str]:
    task = item.task
    draft = close_draft(open_draft(task, "blind", 0), text, state_hash(task.initial_state))
    return outcome_problems(task, draft)


@pytest.mark.parametrize("name", ["bank", "railway"])
def test_no_template_is_passed_by_a_parrot_or_a_refusal_without_look_up(name):
    for template, item in every_template(name).items():
        task = item.task
        assert said_blind(item, parrot(task.user_scenario, task.instruction)), template
        assert said_blind(item, item.final_message), template


def first_of(name: str, template: str) -> SampledTask:
    return every_template(name)[template]


def test_the_issue_examples_now_fail():
    item = first_of("railway", "upgrade.no.not_standard")
    known = ", ".join(item.task.user_scenario.known.values())  # a booking id or an email
    problems = said_blind(item, f"Noted, {known}.")
    # Its booking id is no fact (issue 33) and its reason ("saver") may be the caller's own
    # word: what fails it is the look-up a refusal needs.
    assert any("no look-up" in p for p in problems)
    item = first_of("bank", "pay.no.over_daily_limit")
    problems = said_blind(item, "Sure thing, I will handle that via standard processing.")
    assert problems


# --- over a generated run ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def detours_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("holes") / "out"
    args = [
        "generate",
        "--domains",
        "math,knowledge,bank,railway",
        "--num-tasks",
        "120",
        "--detours",
        "--seed",
        "3",
    ]
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return out


def rows_of(out, config: str) -> list[dict]:
    return [
        r
        for f in sorted((out / "data" / config).glob("*.parquet"))
        for r in pq.read_table(f).to_pylist()
    ]


def test_no_constraint_breaking_attempt_outscores_a_compliant_verified_one(detours_run):
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows_of(detours_run, "traces") + rows_of(detours_run, "rejected"):
        groups[row["task_id"]].append(row)
    broken_seen = 0
    for members in groups.values():
        broken = [r for r in members if not r["preference_compliant"]]
        good = [r for r in members if r["preference_compliant"] and r["verified"]]
        broken_seen += len(broken)
        for b in broken:
            for g in good:
                assert b["reward_total"] < g["reward_total"], (b["variant"], g["variant"])
                assert b["reward_group"] <= g["reward_group"], (b["variant"], g["variant"])
    assert broken_seen > 0  # the run does hold such attempts (plain answers, forbidden tools)


def test_check_rewards_opens_the_outputs_worlds_and_no_unworked_policy_passes(detours_run):
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", "check-rewards", str(detours_run), "--tasks", "15"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads((detours_run / "reward_check.json").read_text())
    unworked = {(e["domain"], e["policy"]): e for e in report["unworked"]}
    for domain in ("bank", "railway"):
        for policy in ("parrot", "refusal_without_lookup", "cheapest_route", "dearest_route"):
            assert unworked[(domain, policy)]["verified"] == 0, (domain, policy)
    assert all(c["gaming_best"] == 0 and c["gaming_best_group"] == 0 for c in report["table"])
