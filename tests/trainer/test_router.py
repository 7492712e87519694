"""The router baseline learns a decision that only the preference sentence decides."""

from __future__ import annotations

import json

from trainer import router


def _row(i: int, quick: bool) -> dict:
    said = "I need it fast, please." if quick else "Keep the bill low, please."
    fast, cheap = (1.0, 0.2) if quick else (0.2, 1.0)
    return {
        "id": f"t{i}",
        "domain": "math",
        "template": "arithmetic",
        "instruction": f"What is {i} plus {3 * i + 1}? {said}",
        "preference": json.dumps({"profile": "hurry" if quick else "cheap", "instruction": said}),
        "system_prompt": "Solve it.\n\n## Prices for this task\n| calculator | 0.1 |",
        "tools": json.dumps([{"function": {"name": "calculator"}}, {"function": {"name": "code"}}]),
        "route_table": [
            {"name": "code", "detour": False, "expected_reward": fast, "reward_total": fast},
            {"name": "calculator", "detour": False, "expected_reward": cheap,
             "reward_total": cheap},
            {"name": "calculator_twice", "detour": True, "expected_reward": 0.0,
             "reward_total": 0.0},
        ],
    }  # fmt: skip


def test_the_router_reads_the_preference_where_the_question_does_not_decide():
    rows = [_row(i, quick=i % 3 == 0) for i in range(90)]
    fitted = router.fit(rows[:60])
    assert fitted.names == ("calculator", "code")  # detours are never routes
    scored = rows[60:]
    wanted = ["code" if i % 3 == 0 else "calculator" for i in range(60, 90)]
    assert fitted.choose(scored) == wanted


def test_the_ridge_is_cross_validated_on_enough_rows_and_fixed_on_few():
    rows = [_row(i, quick=i % 2 == 0) for i in range(60)]
    names = tuple(router.route_names(rows))
    assert router.cross_validated_ridge(rows, names) in router.RIDGES
    few = rows[: router.MIN_CROSS_VALIDATED - 1]
    assert router.cross_validated_ridge(few, names) == router.RIDGES[len(router.RIDGES) // 2]
