"""The card's sections for a reader deciding whether to train on the data: what each variant is
for (with counts), snippets that run against the output, the oracle table, comparisons on the
same tasks, plots that show something, Markdown that renders."""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from pathlib import Path

import jsonpatch
import pandas as pd
import pytest
from markdown_it import MarkdownIt

from tests.publishing_data import rows, shared
from toolscale.core.records import Task
from toolscale.publish.card import card
from toolscale.publish.card_plots import reward_panels, varies
from toolscale.sample.worlds import WorldStore
from toolscale.stats.routes import fixed_routes
from toolscale.stats.variants import kind, same_tasks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset() -> Path:
    out = shared()
    card(out)
    return out


def text_of(out: Path) -> str:
    return (out / "README.md").read_text()


def body(out: Path) -> str:
    return text_of(out).split("---\n", 2)[2]


def section(text: str, title: str) -> str:
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def markdown_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """(header cells, body rows) of every table, as markdown-it parses them."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    found, cells, row, part = [], [], [], None
    for t in tokens:
        if t.type == "table_open":
            header, rows_ = [], []
        elif t.type in ("thead_open", "tbody_open"):
            part = t.type
        elif t.type == "tr_open":
            row = []
        elif t.type == "inline" and part is not None and cells is not None:
            row.append(t.content)
        elif t.type == "tr_close":
            (header if part == "thead_open" else rows_).append(row)
        elif t.type == "table_close":
            found.append((header[0], rows_))
            part = None
    return found


def test_the_card_parses_every_table_has_rows_and_every_image_exists(dataset):
    text = body(dataset)
    tables = markdown_tables(text)
    assert len(tables) >= 7
    for header, rows_ in tables:
        assert rows_, header  # a header without rows is no table
        assert all(len(r) == len(header) for r in rows_), header
    images = [
        child.attrs["src"]
        for t in MarkdownIt("commonmark").parse(text)
        if t.type == "inline"
        for child in t.children or []
        if child.type == "image"
    ]
    assert len(images) >= 3
    assert all((dataset / src).is_file() for src in images)
    assert text.count("<details>") == text.count("</details>") == 1
    assert text.count("```") % 2 == 0


def test_variants_are_counted_per_kind(dataset):
    tasks = {t["id"]: t for t in rows(dataset, "tasks")}
    attempts = rows(dataset, "traces") + rows(dataset, "rejected")
    expected: Counter[tuple[str, bool]] = Counter()
    names: dict[str, set[str]] = {}
    for a in attempts:
        table = {s["name"]: s["detour"] for s in tasks[a["task_id"]]["route_table"]}
        found = kind(a["variant"], table)
        expected[(found, a["verified"])] += 1
        names.setdefault(found, set()).add(a["variant"])
    header = ["kind", "verified", "rejected", "variants", "use"]
    shown = next(rows_ for h, rows_ in markdown_tables(body(dataset)) if h == header)
    assert {r[0] for r in shown} >= {"gold", "detour", "route"}
    for cells in shown:
        assert cells[1:3] == [str(expected[(cells[0], True)]), str(expected[(cells[0], False)])]
        listed = sorted(names[cells[0]])
        assert cells[3].startswith(f"{len(listed)}: {', '.join(listed[:3])}")
    assert "the trace of the task's `expected_route`, else its `gold`" in " ".join(
        text_of(dataset).split()
    )


def test_kinds_come_from_the_route_table():
    assert kind("gold", {}) == "gold"
    assert kind("search_retry", {"search_retry": True}) == "detour"
    assert kind("expert-2", {"expert-2": False}) == "route"
    assert kind("alternative_1", {}) == "route"
    assert kind("repeat_read", {}) == "detour"
    assert kind("plain_answer", {}) == "format"
    assert kind("sampled", {}) == "other"


def test_the_snippets_run_against_the_output(dataset, monkeypatch):
    configs = section(text_of(dataset), "Configs: which for what")
    (code,) = re.findall(r"```python\n(.*?)```", configs, re.S)
    assert f'load_dataset("{dataset.name}", c' in code  # relative to the folder above
    monkeypatch.chdir(dataset.parent)
    monkeypatch.setenv("HF_DATASETS_CACHE", str(dataset.parent / "hf-cache"))
    scope: dict = {}
    exec(compile(code, "card-snippets", "exec"), scope)
    assert sorted(scope["data"]) == sorted(["tasks", "traces", "rejected", "worlds"])
    for config, loaded in scope["data"].items():
        assert loaded.num_rows == len(rows(dataset, config))
    # The state rebuilt with plain jsonpatch as the card says is the one toolscale rebuilds.
    (expression,) = re.findall(r"`(jsonpatch\.apply_patch\(.*?\))`", " ".join(configs.split()))
    worlds = {w["id"]: w for w in rows(dataset, "worlds")}
    task = next(t for t in rows(dataset, "tasks") if t["world"])
    scope = {"jsonpatch": jsonpatch, "json": json, "task": task, "world": worlds[task["world"]]}
    state = eval(expression, scope)
    assert state == Task.from_row(task, WorldStore.of_output(dataset)).initial_state


def test_the_oracle_table_matches_the_route_tables(dataset):
    tasks = [t for t in rows(dataset, "tasks") if t["oracle_route"]]
    shown = section(text_of(dataset), "Routing: the oracle against fixed routes")
    lines = {ln.split(" | ")[0].strip("| "): ln.strip("|").split(" | ") for ln in
             shown.splitlines() if ln.startswith("| ") and "---" not in ln}  # fmt: skip
    for domain in sorted({t["domain"] for t in tasks}):
        mine = [t for t in tasks if t["domain"] == domain]
        oracle = sum(t["oracle_reward"] for t in mine) / len(mine)
        cells = [c.strip() for c in lines[domain]]
        assert cells[1:3] == [str(len(mine)), f"{oracle:.3f}"]
        differ = sum(t["expected_route"] != t["oracle_route"] for t in mine) / len(mine)
        assert cells[5] == f"{100 * differ:.0f}%"
        best = Counter(t["oracle_route"] for t in mine)
        top = sorted(best, key=lambda r: (-best[r], r))[:3]
        assert cells[6] == ", ".join(f"{r} {100 * best[r] / len(mine):.0f}%" for r in top)
        fixed = fixed_routes(mine)
        policy, mean = next(iter(fixed.items()))
        share = f"{100 * mean / oracle:.0f}%"
        assert cells[4] == f"{policy.removeprefix('always ')}: {mean:.3f} ({share})"


def test_fixed_routes_by_hand():
    def score(name, reward, cost, detour=False):
        return {"name": name, "reward_total": reward, "total_cost": cost, "detour": detour}

    a = {"route_table": [score("calculator", 1.0, 0.1), score("expert-1", 0.5, 2.0)]}
    b = {"route_table": [score("expert-1", 0.8, 2.0), score("guess", 0.9, 0.0, detour=True)]}
    found = fixed_routes([a, b])
    assert found["always calculator"] == pytest.approx(0.5)
    assert found["always expert-1"] == pytest.approx(0.65)
    assert found["always cheapest"] == pytest.approx(0.9)  # A: calculator, B: expert-1
    assert found["always dearest"] == pytest.approx(0.65)
    assert found["always cheapest, mistakes included"] == pytest.approx(0.95)  # B: the guess
    assert next(iter(found)) == "always cheapest, mistakes included"  # best first


def test_routes_are_compared_on_the_same_tasks_only():
    # Task A: gold $10, no detour; task B: gold $1, a detour $2 (twice, $1.5 and $2.5).
    # Averaged over attempts, gold costs $5.5 and detours $2: detours look cheaper. They are not.
    frame = pd.DataFrame(
        [
            ("A", "gold", 10.0, 1000.0, True),
            ("B", "gold", 1.0, 100.0, True),
            ("B", "detour", 1.5, 300.0, True),
            ("B", "detour", 2.5, 500.0, False),
        ],
        columns=["task_id", "kind", "total_cost", "total_latency_ms", "verified"],
    ).assign(domain="d")
    naive = frame.groupby("kind")["total_cost"].mean()
    assert naive["detour"] < naive["gold"]  # the comparison the old card made
    (row,) = same_tasks(frame)
    assert (row["kind"], row["tasks"]) == ("detour", 1)
    assert row["gold_cost"] == 1.0 and row["cost"] == 2.0
    assert row["gold_latency_s"] == 0.1 and row["latency_s"] == 0.4
    assert row["verified"] == 0.5


def test_no_plot_of_a_constant():
    assert not varies(pd.Series([1.0, 1.0, 1.0]))
    assert not varies(pd.Series([True, False]))
    assert varies(pd.Series([0.0, 1.0]))
    frame = pd.DataFrame(
        {
            "domain": ["flat", "flat", "spread", "spread"],
            "kind": ["gold", "detour", "gold", "detour"],
            "reward_total": [1.0, 1.0, 1.0, 0.2],
        }
    )
    assert len(reward_panels(frame)) == 1  # one panel, a box per domain (or family)
    assert reward_panels(frame[frame["domain"] == "flat"]) == []


def test_configuration_is_shown_once_collapsed_without_defaults_or_local_paths(dataset):
    text = text_of(dataset)
    shown = section(text, "Configuration")
    assert shown.count("<details>") == 1
    options = {line.split(" | ")[0].strip("| ") for line in shown.splitlines() if "| `" in line}
    assert {"domains", "num_tasks", "detours", "seed"} <= options
    assert not options & {"out", "cache_dir", "workers", "chunk_size", "max_turns"}  # defaults
    assert str(dataset) not in text and '"api_key_env"' not in text


def test_the_output_files_have_the_mode_the_umask_gives(dataset):
    umask = os.umask(0)
    os.umask(umask)
    files = [p for p in dataset.rglob("*") if p.is_file() and "hf-cache" not in p.parts]
    assert files
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o666 & ~umask}


def test_a_card_rendered_again_is_the_same(dataset):
    before = text_of(dataset)
    card(dataset)
    assert text_of(dataset) == before
    assert json.loads((dataset / "run.json").read_text())["status"] == "complete"
