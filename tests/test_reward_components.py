"""A user's extra reward component is one function and one line of the run config: its value is
in every row, its weight in `reward_weights` and in `reward_total`, validate re-checks it, and the
trainer gets one more reward function, logged under its name."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest

from tests.test_generate import cli
from toolscale.core.errors import ConfigError
from toolscale.judge.components import components
from toolscale.judge.rewards import RewardConfig, parse_reward_config, row_total
from trainer.reward_functions import reward_functions

LINE = "brevity=tests.fixtures.extra_reward:brevity@0.5"


def test_the_line_adds_a_fourth_component_after_the_three_built_in() -> None:
    config = parse_reward_config(components=LINE)
    assert config.components == (("brevity", "tests.fixtures.extra_reward:brevity", 0.5),)
    assert [c.name for c in components(config)] == [
        "outcome",
        "efficiency",
        "preference",
        "brevity",
    ]
    assert config.weights() == {"w_o": 1.0, "w_e": 1.0, "w_p": 1.0, "w_brevity": 0.5}
    # as run.json gives it back (lists), the same config
    assert RewardConfig(components=[["brevity", "tests.fixtures.extra_reward:brevity", 0.5]]) == (
        config
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("outcome=tests.fixtures.extra_reward:brevity@1", "must be a new identifier"),
        ("brevity=tests.fixtures.extra_reward:brevity", "name=module:function@weight"),
        ("brevity=no_such_module:brevity@1", "cannot be imported"),
        ("brevity=tests.fixtures.extra_reward:brevity@-1", "weight >= 0"),
    ],
)
def test_a_bad_component_is_one_clear_error(line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        components(parse_reward_config(components=line))


def test_a_generated_row_holds_the_extra_value_and_its_weighted_share(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_yaml = tmp_path / "run.yaml"
    run_yaml.write_text(f'reward_components: "{LINE}"\n')  # one line of the run config
    cli(
        "generate",
        "--domains",
        "math",
        "--num-tasks",
        "3",
        "--config",
        str(run_yaml),
        "--out",
        str(out),
    )
    rows = [
        row
        for config in ("traces", "rejected")
        for path in sorted((out / "data" / config).glob("*.parquet"))
        for row in pq.read_table(path).to_pylist()
    ]
    assert rows
    for row in rows:
        extra = json.loads(row["reward_extra"])
        assert extra == {"brevity": 1.0 / (1 + row["num_tool_calls"])}
        assert json.loads(row["reward_weights"])["w_brevity"] == 0.5
        built_in = row["reward_outcome"] + row["reward_efficiency"] + row["reward_preference"]
        assert row["reward_total"] == pytest.approx(built_in + 0.5 * extra["brevity"], abs=1e-12)
        assert row_total(row) == pytest.approx(row["reward_total"], abs=1e-12)
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["reward"]["components"] == [
        ["brevity", "tests.fixtures.extra_reward:brevity", 0.5]
    ]
    checked = cli("validate", str(out))
    assert f"{len(rows) + 3} rows valid" in checked.stdout + checked.stderr  # + the 3 tasks


def test_the_trainer_weights_and_logs_the_extra_component() -> None:
    config = parse_reward_config(components=LINE)
    functions, weights = reward_functions(config, "linear")
    assert [f.__name__ for f in functions][-1] == "reward_brevity" and weights == [1, 1, 1, 0.5]
    labels = [
        {
            "reward_outcome": 1.0,
            "reward_efficiency": -0.1,
            "reward_preference": 0.5,
            "reward_total": 1.4 + 0.25,
            "reward_extra": json.dumps({"brevity": 0.5}),
            "verified": True,
            "num_tool_calls": 1,
            "total_cost": 0.1,
        },
        {
            "reward_outcome": 0.0,
            "reward_efficiency": -0.2,
            "reward_preference": 0.1,
            "reward_total": -0.1 + 0.125,
            "reward_extra": json.dumps({"brevity": 0.25}),
            "verified": False,
            "num_tool_calls": 3,
            "total_cost": 0.3,
        },
    ]
    environments = [SimpleNamespace(_labels=x) for x in labels]
    logged: dict[str, float] = {}
    functions[0](
        completions=[[], []],
        environments=environments,
        log_metric=lambda name, value: logged.setdefault(name, value),
    )
    assert functions[-1](completions=[[], []], environments=environments) == [0.5, 0.25]
    assert logged["toolscale/reward_brevity"] == pytest.approx(0.375)
