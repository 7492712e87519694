"""The data card: every number it shows is recomputed here from the rows, one by one."""

from __future__ import annotations

import json
import re
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
from toolscale.write.features import FEATURES

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
    for config in listed:
        loaded = datasets.load_dataset(str(dataset), config, split="train")
        assert loaded.num_rows == len(rows(dataset, config))
        assert loaded.features == FEATURES[config]  # the Parquet files carry the Features
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
    assert f"Rejected by stage: {by_stage}." in text
    sizes = table(text, "| config | rows | a row | for |")
    worlds = rows(dataset, "worlds")
    for config, found in (
        ("tasks", tasks),
        ("traces", traces),
        ("rejected", rejected),
        ("worlds", worlds),
    ):
        assert sizes[config][0] == str(len(found))


def test_domain_table_matches_the_rows(dataset):
    text = (dataset / "README.md").read_text()
    shown = table(
        text,
        "| domain | tasks | templates | tools | verified | rejected | solved | calls / trace "
        "| prompt p50 / max | completion p50 / max | groups varied |",
    )
    tasks = rows(dataset, "tasks")
    attempts = rows(dataset, "traces") + rows(dataset, "rejected")
    assert sorted(shown) == sorted({t["domain"] for t in tasks})
    for domain, cells in shown.items():
        mine = [t for t in tasks if t["domain"] == domain]
        tools = {f["function"]["name"] for t in mine for f in json.loads(t["tools"])}
        ok = [a for a in attempts if a["domain"] == domain and a["verified"]]
        failed = [a for a in attempts if a["domain"] == domain and not a["verified"]]
        solved = len({a["task_id"] for a in ok})
        mean_calls = sum(a["num_tool_calls"] for a in ok) / len(ok)
        assert cells[:8] == [
            str(len(mine)),
            str(len({t["template"] for t in mine})),
            str(len(tools)),
            str(len(ok)),
            str(len(failed)),
            pct(solved, len(mine)),
            f"{mean_calls:.2f}",
            cells[7],
        ]
        # prompt tokens: ceil(characters / 4) of system prompt, instruction and tool schemas
        prompts = sorted(
            -(-len("\n".join((t["system_prompt"], t["instruction"], t["tools"]))) // 4)
            for t in mine
        )
        assert cells[7] == f"{int(statistics.median(prompts))} / {prompts[-1]}"
        groups = {}
        for a in attempts:
            if a["domain"] == domain:
                groups.setdefault(a["task_id"], set()).add(a["reward_group"])
        several = [g for t, g in groups.items() if sum(a["task_id"] == t for a in attempts) > 1]
        assert cells[9] == f"{sum(len(g) > 1 for g in several)} of {len(several)}"
    orchestration = sorted({t["domain"] for t in tasks if t["family"] == "orchestration"})
    assert f"Judged on the answer (orchestration): {', '.join(orchestration)};" in text


def test_distributions_and_costs_match_the_rows(dataset):
    text = (dataset / "README.md").read_text()
    traces = rows(dataset, "traces")
    attempts = traces + rows(dataset, "rejected")
    shown = table(text, "| column | mean | p50 | p90 | max |")
    numeric = [c for c, v in traces[0].items() if isinstance(v, int | float) and v is not None]
    labels = sorted(c for c in numeric if c.startswith("reward_"))
    assert set(shown) == {"num_tool_calls", "num_turns", "cost", "latency_ms", *labels}
    for column, cells in shown.items():
        expected = summary([float(r[column]) for r in traces])
        wanted = [expected[1], *expected[3:]]  # mean, p50, p90, max
        tolerance = [5e-4 if abs(v) < 100 else 0.5 / abs(v) for v in wanted]  # whole above 100
        assert all(close(c, v, t) for c, v, t in zip(cells, wanted, tolerance, strict=True)), column
    tool_cost = sum(r["cost"] for r in attempts)
    expert = sum(
        c["prompt_tokens"] + c["completion_tokens"] for r in attempts for c in r["tool_calls"]
    )
    line = next(ln for ln in text.splitlines() if ln.startswith("Over all "))
    found = re.search(
        r"cost \$([\d.]+) \(\$([\d.]+) per verified trace\), expert tokens (\d+)", line
    )
    assert found and close(found[1], tool_cost) and close(found[2], tool_cost / len(traces))
    assert found[3] == str(expert)
    teacher = sum(r["teacher_prompt_tokens"] + r["teacher_completion_tokens"] for r in attempts)
    if teacher:
        assert f"teacher tokens {teacher}" in line
    else:  # the reference teacher: no teacher tokens, a sentence instead
        assert "teacher tokens" not in line and "the teacher used no model" in line


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
