"""The data card: every number it shows is recomputed here from the rows, one by one."""

from __future__ import annotations

import json
import statistics
from dataclasses import replace
from pathlib import Path

import datasets
import matplotlib.image
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard

from tests.publishing_data import NUM_TASKS, copy, rows, shared
from toolscale.core.errors import ConfigError
from toolscale.publish.card import card, limitations
from toolscale.stats.card_numbers import collect

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset() -> Path:
    out = shared()
    card(out)
    return out


def table(text: str, header: str, occurrence: int = 0) -> dict[str, list[str]]:
    """The markdown table under the `occurrence`-th `header`, keyed by its first cell."""
    lines = text.splitlines()
    start = [i for i, line in enumerate(lines) if line == header][occurrence] + 2
    found = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        found[cells[0]] = cells[1:]
    return found


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def close(shown: str, value: float, tolerance: float = 5e-5) -> bool:
    return abs(float(shown) - value) <= tolerance * max(1.0, abs(value))


def summary(values: list[float]) -> list[float]:
    """count, mean, min, p50, p90, max with linear interpolation between order statistics."""
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    mean = statistics.fmean(values)
    return [len(values), mean, min(values), statistics.median(values), deciles[8], max(values)]


def test_metadata_parses_and_every_listed_config_loads(dataset):
    data = DatasetCard.load(dataset / "README.md").data
    listed = [c["config_name"] for c in data.configs]
    assert listed == [c for c in ("tasks", "traces", "rejected", "worlds") if rows(dataset, c)]
    assert "rejected" in listed  # the fixture has a real rejected attempt
    assert "worlds" in listed  # railway and bank store their run's world once
    infos = {i["config_name"]: i for i in data.dataset_info}
    for config in listed:
        loaded = datasets.load_dataset(str(dataset), config, split="train")
        assert loaded.num_rows == len(rows(dataset, config))
        assert infos[config]["splits"][0]["num_examples"] == loaded.num_rows
        assert [f["name"] for f in infos[config]["features"]] == loaded.column_names
    assert data.license == "apache-2.0"
    assert data.size_categories == ["n<1K"]


def test_yields_and_rejections_match_the_rows(dataset):
    text = (dataset / "README.md").read_text()
    tasks, traces, rejected = (rows(dataset, c) for c in ("tasks", "traces", "rejected"))
    attempts = len(traces) + len(rejected)
    stages = [r["failure_stage"] for r in rejected]
    executed = attempts - sum(s in ("teacher", "format", "execution") for s in stages)
    grounded = executed - stages.count("grounding")
    header = "| planned | sampled | attempts | executed | grounded | verified |"
    shown = table(text, header)
    assert list(shown) == [f"{NUM_TASKS} (100.0%)"]
    assert shown[f"{NUM_TASKS} (100.0%)"] == [
        f"{len(tasks)} ({pct(len(tasks), NUM_TASKS)})",
        f"{attempts} (100.0%)",
        f"{executed} ({pct(executed, attempts)})",
        f"{grounded} ({pct(grounded, attempts)})",
        f"{len(traces)} ({pct(len(traces), attempts)})",
    ]
    by_stage = ", ".join(f"{s} {stages.count(s)}" for s in sorted(set(stages)))
    assert f"Rejected attempts by failure stage: {by_stage}." in text
    sizes = table(text, "| config | rows | bytes | what a row is |")
    worlds = rows(dataset, "worlds")
    for config, found in (
        ("tasks", tasks),
        ("traces", traces),
        ("rejected", rejected),
        ("worlds", worlds),
    ):
        assert sizes[config][0] == str(len(found))
        on_disk = sum(p.stat().st_size for p in (dataset / "data" / config).glob("*.parquet"))
        assert sizes[config][1] == str(on_disk)


def test_domain_table_matches_the_rows(dataset):
    text = (dataset / "README.md").read_text()
    shown = table(
        text,
        "| domain | family | tasks | verified | rejected | tasks solved | gold verified "
        "| calls per trace |",
    )
    tasks = rows(dataset, "tasks")
    attempts = rows(dataset, "traces") + rows(dataset, "rejected")
    assert sorted(shown) == sorted({t["domain"] for t in tasks})
    for domain, cells in shown.items():
        mine = [t for t in tasks if t["domain"] == domain]
        tools = {f["function"]["name"] for t in mine for f in json.loads(t["tools"])}
        ok = [a for a in attempts if a["domain"] == domain and a["verified"]]
        failed = [a for a in attempts if a["domain"] == domain and not a["verified"]]
        gold = [a for a in attempts if a["domain"] == domain and a["variant"] == "gold"]
        solved = len({a["task_id"] for a in ok})
        mean_calls = sum(a["num_tool_calls"] for a in ok) / len(ok)
        assert cells[0] == mine[0]["family"]
        assert cells[1:5] == [
            str(len(mine)),
            str(len(ok)),
            str(len(failed)),
            pct(solved, len(mine)),
        ]
        assert cells[5] == pct(sum(a["verified"] for a in gold), len(gold))
        assert cells[6] == f"{mean_calls:.2f}"
        listed = table(text, "| domain | templates | tools |")[domain]
        assert listed[0].split(", ") == sorted({t["template"] for t in mine})
        assert listed[1].split(", ") == sorted(tools)


def test_distributions_and_costs_match_the_rows(dataset):
    text = (dataset / "README.md").read_text()
    traces = rows(dataset, "traces")
    attempts = traces + rows(dataset, "rejected")
    shown = table(text, "| column | mean | p50 | p90 | max |")
    numeric = [c for c, v in traces[0].items() if isinstance(v, int | float) and v is not None]
    labels = sorted(c for c in numeric if c.startswith(("reward_", "preference_")))
    assert set(shown) == {"num_tool_calls", "num_turns", "cost", "latency_ms", *labels}
    for column, cells in shown.items():
        expected = summary([float(r[column]) for r in traces])
        wanted = [expected[1], *expected[3:]]  # mean, p50, p90, max
        assert all(close(c, v, 5e-4) for c, v in zip(cells, wanted, strict=True)), column
    costs = table(text, "| item | total | per verified trace |")
    tool_cost = sum(r["cost"] for r in attempts)
    assert close(costs["modelled tool-call cost ($)"][0], tool_cost)
    assert close(costs["modelled tool-call cost ($)"][1], tool_cost / len(traces))
    expert = sum(
        c["prompt_tokens"] + c["completion_tokens"] for r in attempts for c in r["tool_calls"]
    )
    assert costs["expert (model tool) tokens"][0] == str(expert)
    teacher = sum(r["teacher_prompt_tokens"] + r["teacher_completion_tokens"] for r in attempts)
    if teacher:
        assert costs["teacher tokens"][0] == str(teacher)
    else:  # the reference teacher: no teacher rows, a sentence instead
        assert "teacher tokens" not in costs and "the teacher used no model" in text


def test_plots_are_real_png_files(dataset):
    text = (dataset / "README.md").read_text()
    for name in ("rewards.png", "cost_latency.png", "routes.png", "rejected.png"):
        path = dataset / "assets" / name
        assert f"](assets/{name})" in text
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        image = matplotlib.image.imread(path)
        assert image.shape[0] > 100 and image.shape[1] > 100
        assert len({tuple(p) for p in image.reshape(-1, image.shape[2])[::97]}) > 2


def test_card_without_reward_columns_renders(dataset, tmp_path):
    out = copy(dataset, tmp_path / "out")
    for path in [*(out / "data" / "traces").glob("*"), *(out / "data" / "rejected").glob("*")]:
        table_ = pq.read_table(path)
        keep = [c for c in table_.column_names if not c.startswith(("reward_", "preference_"))]
        pq.write_table(table_.select(keep), path)
    (out / "assets" / "rewards.png").unlink(missing_ok=True)
    card(out)
    text = (out / "README.md").read_text()
    assert "This dataset has no reward columns." in text
    assert not (out / "assets" / "rewards.png").exists()


def test_card_refuses_counts_the_data_does_not_hold(dataset, tmp_path):
    out = copy(dataset, tmp_path / "out")
    run = json.loads((out / "run.json").read_text())
    run["counts"]["verified"] += 1
    (out / "run.json").write_text(json.dumps(run))
    with pytest.raises(ConfigError, match=r"run\.json records"):
        card(out)


def test_the_card_says_where_the_domains_own_programs_ran(dataset):
    text = (dataset / "README.md").read_text()
    own = "the domains' own route programs (the oracle's and the reference teacher's) ran in"
    assert "Tool calls ran under this isolation:" in text and own in text
    # A run of domains without code tools ran nothing outside the sandbox to say so of.
    stats = collect(dataset)
    bank_only = replace(stats, domains=[d for d in stats.domains if d["domain"] == "bank"])
    assert not any(own in line for line in limitations(bank_only))
    assert any(own in line for line in limitations(stats))
