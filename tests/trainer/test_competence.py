"""The competence-and-cost router: competence shares computed by hand, shrunk across skill levels;
a route chosen by expected reward under the task's own prices and preference; the evaluation
row plays the route chosen; route shares per preference profile."""

from __future__ import annotations

import pytest

from toolscale.core.contract import Route
from toolscale.core.records import RouteScore
from trainer import competence, router_rows
from trainer.competence import Competence, Option
from trainer.table import Scored, build, row_of


def _score(name: str, verified: bool, detour: bool = False) -> dict:
    return {"name": name, "detour": detour, "verified": verified}


def _task(i: int, template: str, difficulty: str, calculator: bool, expert: bool) -> dict:
    return {
        "id": f"t{i}",
        "domain": "math",
        "template": template,
        "difficulty": difficulty,
        "route_table": [
            _score("calculator", calculator),
            _score("expert-1", expert),
            _score("calculator_twice", True, detour=True),  # a detour is never counted
        ],
    }


def test_competence_is_each_route_s_right_share_shrunk_towards_the_coarser_skill() -> None:
    rows = [
        _task(0, "sum", "hard", True, True),
        _task(1, "sum", "hard", False, True),
        _task(2, "sum", "easy", True, False),
        _task(3, "sum", "easy", True, False),
    ]
    learnt = competence.fit(rows)
    assert learnt.tasks == 4
    assert ("calculator_twice", ()) not in learnt.played
    hard = {"domain": "math", "template": "sum", "difficulty": "hard"}
    # the module docstring's worked example: 3 of 4 overall, 1 of 2 at hard
    assert learnt.p_right("calculator", hard) == pytest.approx(67 / 108)
    # expert-1: 2 of 4 -> p() = 3/6 = 1/2 at every coarser level; 2 of 2 at hard: (2 + 1) / 4
    assert learnt.p_right("expert-1", hard) == pytest.approx(3 / 4)
    # a skill never seen keeps the coarser level's share: an unknown template of math
    other = {"domain": "math", "template": "coins", "difficulty": "hard"}
    assert learnt.p_right("calculator", other) == pytest.approx(13 / 18)
    # a route never played anywhere is a coin toss
    assert learnt.p_right("search", hard) == pytest.approx(0.5)


def test_fit_reads_at_most_n_tasks_drawn_across_domains() -> None:
    rows = [_task(i, "sum", "easy", True, False) for i in range(10)]
    rows += [{**_task(i, "fact", "easy", False, True), "domain": "knowledge", "id": f"k{i}"}
             for i in range(10)]  # fmt: skip
    learnt = competence.fit(rows, 4)
    assert learnt.tasks == 4
    assert learnt.played[("calculator", ("math",))] == 2
    assert learnt.played[("calculator", ("knowledge",))] == 2


def test_the_router_takes_the_best_expected_reward_so_prices_and_preference_decide() -> None:
    right: dict[tuple[str, tuple[str, ...]], int] = {("calculator", ()): 9, ("expert-1", ()): 8}
    learnt = Competence(right, {("calculator", ()): 10, ("expert-1", ()): 8}, 10)
    row = {"domain": "math", "template": "sum", "difficulty": "easy"}
    p_calc, p_expert = 10 / 12, 9 / 10  # (9 + 1) / 12, (8 + 1) / 10
    assert learnt.p_right("calculator", row) == pytest.approx(p_calc)
    assert learnt.p_right("expert-1", row) == pytest.approx(p_expert)
    cheap = [Option("calculator", 1.3, -0.02, 1, 0.0001), Option("expert-1", 1.0, -0.3, 1, 0.02)]
    # calculator: 10/12 x 1.3 - 2/12 x 0.02 = 1.080; expert: 0.9 x 1.0 - 0.1 x 0.3 = 0.87
    assert competence.choose(learnt, row, cheap) == "calculator"
    # the same routes under a task whose preference pays for the expert's accuracy:
    dear = [Option("calculator", 1.0, -0.5, 1, 0.0001), Option("expert-1", 1.2, -0.1, 1, 0.02)]
    # calculator: 10/12 x 1.0 - 2/12 x 0.5 = 0.75; expert: 0.9 x 1.2 - 0.1 x 0.1 = 1.07
    assert competence.choose(learnt, row, dear) == "expert-1"
    tie = [Option("b", 1, 0, 2, 0.1), Option("a", 1, 0, 2, 0.1), Option("c", 1, 0, 1, 1.0)]
    assert competence.choose(Competence({}, {}, 0), row, tie) == "c"  # fewer calls first
    assert competence.choose(learnt, row, []) is None


def _route_score(name: str, reward: float, verified: bool, calls: int = 1) -> RouteScore:
    return RouteScore(
        name=name, detour=False, verified=verified, failure_stage=None, compliant=True,
        num_tool_calls=calls, total_cost=0.01 * calls, total_latency_ms=10.0, reward_total=reward,
    )  # fmt: skip


class _Task:
    """What PlayedTask reads of a task: its id, route table, gold actions and preference."""

    def __init__(self, names: list[str]) -> None:
        self.id = "t0"
        self.route_table = [_route_score(n, 0.0, True) for n in names]
        self.gold_actions: list[dict] = []
        self.expected_route = names[0]
        self.preference = type("P", (), {"profile": "cost_saver"})()


def test_the_evaluation_row_plays_the_route_the_router_chose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(router_rows.router, "fit_by_domain", lambda rows: {})  # its own tests
    calc = Route("calculator", [], "calc")
    expert = Route("expert-1", [], "expert")
    declined = Route("declined", [], "no", detour=True)
    played = router_rows.PlayedTask(
        _Task(["calculator", "expert-1"]),  # type: ignore[arg-type]
        (
            (calc, _route_score("calculator", 1.25, True)),
            (expert, _route_score("expert-1", -0.2, False)),
            (declined, _route_score("declined", 0.0, False, 0)),
        ),
        ((1.25, -0.05), (1.1, -0.2), (0.0, 0.0)),
    )
    assert [o.name for o in router_rows.options(played)] == ["calculator", "expert-1"]
    row = {"id": "t0", "domain": "math", "template": "sum", "difficulty": "easy"}
    train = [{**_task(i, "sum", "easy", i < 2, True), "id": f"x{i}"} for i in range(6)]
    attempts, about = router_rows.router_attempts(train, [row], [played], competence_tasks=6)
    # learnt: calculator right on 2 of 6 (p = 3/8, then 0.344, 0.336, 0.334 down the levels),
    # expert-1 on 6 of 6 (7/8, then 0.969, 0.992, 0.998): the calculator expects 0.334 x 1.25 -
    # 0.666 x 0.05 = 0.384, the expert 0.998 x 1.1 - 0.002 x 0.2 = 1.097: the expert is played
    (attempt,) = attempts[router_rows.COMPETENCE]
    assert attempt.reward_total == -0.2 and attempt.profile == "cost_saver"
    assert about["competence_tasks"] == 6


def test_route_shares_per_profile_count_each_profile_s_tasks() -> None:
    def scored(i: int, route: str, profile: str) -> Scored:
        return Scored(str(i), True, 1.0, 0.0, 0.0, True, route, "calculator", profile)

    attempts = [scored(0, "calculator", "cheap"), scored(1, "expert-1", "cheap"),
                scored(2, "no_tool", "fast")]  # fmt: skip
    row = row_of("p", "policy", attempts, None)
    assert row.profile_routes == {"cheap": {"calculator": 1, "expert-1": 1}, "fast": {"no_tool": 1}}
    text = build({"p": attempts}, {"always calculator": attempts}, {}).to_markdown()
    assert "| p | cheap | 2 | calculator 50%, expert-1 50% |" in text
    assert "| always calculator | cheap |" not in text  # a fixed route's shares say nothing
