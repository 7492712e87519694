"""Progress from the first finished task, not the first finished chunk: generate reports each
task as it ends (with the endpoints' request and token counts), and the bar shows them."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from tests.teachers.fake_openai import FakeOpenAI, Plans, gold_turns
from toolscale.cli.progress import StageProgress
from toolscale.config.generate import GenerateConfig
from toolscale.pipeline import generate as generate_module
from toolscale.pipeline.generate import generate
from toolscale.stats.run_stats import RunStats

KEY_ENV = "TOOLSCALE_TEST_KEY"


def test_each_finished_task_is_reported_before_its_chunk_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    monkeypatch.setattr(generate_module, "PROGRESS_EVERY_S", 0.0)
    seen: list[tuple[int, int, bool]] = []

    def on_progress(stats: RunStats, endpoints: dict[str, Any] | None = None) -> None:
        written = any((tmp_path / "out" / ".toolscale" / "chunks").glob("*.json"))
        requests = (endpoints or {}).get("teacher", {}).get("requests", -1)
        seen.append((stats.funnel().sampled, requests, written))

    turns = gold_turns("math", 5)
    with FakeOpenAI(Plans(turns)) as server:
        config = GenerateConfig(
            domains=["math"],
            num_tasks=5,
            out=tmp_path / "out",
            teacher="openai",
            base_url=server.base_url,
            model="fake-model",
            api_key_env=KEY_ENV,
            chunk_size=5,  # one chunk: the old per-chunk progress said nothing until the end
            concurrency=1,
        )
        summary = generate(config, on_progress=on_progress)
    # One call per finished task while the chunk is unwritten, then one for the chunk.
    assert [s for s, _, _ in seen] == [1, 2, 3, 4, 5, 5]
    assert [w for _, _, w in seen] == [False] * 5 + [True]
    requests = [r for _, r, _ in seen]
    assert requests[0] >= 2 and requests == sorted(requests)  # gold: a call, then the answer
    assert requests[-1] == summary["endpoints"]["teacher"]["requests"]


def terminal() -> Console:
    return Console(file=io.StringIO(), width=200, force_terminal=True)


def test_the_bar_shows_requests_and_tokens_per_second(monkeypatch):
    bar = StageProgress(total=3, out=terminal())
    bar.started -= 10.0  # ten seconds ago
    stats = RunStats.total([])
    teacher = {"requests": 4, "cached": 1, "completion_tokens": 250}
    bar.update(stats, {"teacher": teacher})
    try:
        shown = bar.bar.tasks[0].fields["stages"]
    finally:
        bar.stop()
    assert "requests 4 (1 cached)" in shown
    rate = float(shown.split()[-2])
    assert 23.0 <= rate <= 25.0  # 250 tokens over a bit more than 10 s
    reference = StageProgress(total=3, out=terminal())
    reference.update(stats, {})
    try:
        assert "requests" not in reference.bar.tasks[0].fields["stages"]
    finally:
        reference.stop()


def test_the_bar_fits_an_80_column_terminal_without_cutting_the_counts():
    out = Console(file=io.StringIO(), width=80, force_terminal=True)
    bar = StageProgress(total=200, out=out)
    stats = RunStats.total([])
    bar.update(stats, {"teacher": {"requests": 1234, "cached": 56, "completion_tokens": 99999}})
    assert bar.bar is not None
    bar.stop()
    # what the bar shows, rendered 80 columns wide without the terminal's control codes
    shown_at_80 = Console(file=io.StringIO(), width=80)
    shown_at_80.print(bar.bar.get_renderable())
    lines = shown_at_80.file.getvalue().splitlines()
    assert lines and all(len(line) <= 80 for line in lines)
    shown = " ".join(" ".join(line.split()) for line in lines)
    assert "…" not in shown
    assert bar.bar.tasks[0].fields["stages"] in shown  # every count is on screen, wrapped


def test_a_log_that_is_no_terminal_gets_only_plain_lines_from_the_first_task(monkeypatch):
    out = Console(file=io.StringIO(), width=200, force_terminal=False)
    clock = [100.0]
    monkeypatch.setattr("toolscale.cli.progress.time.monotonic", lambda: clock[0])
    bar = StageProgress(total=50, out=out)
    stats = RunStats.total([])
    for step in (0.0, 4.0, 4.0, 4.0):  # t = 100, 104, 108, 112: lines at 100 and 112 only
        clock[0] += step
        bar.update(stats, {})
    lines = [line for line in out.file.getvalue().splitlines() if line.startswith("generate 0/")]
    bar.stop()
    assert bar.bar is None and len(out.file.getvalue().splitlines()) == 2  # no bar drawn
    assert lines == [
        "generate 0/50 tasks, 0 s: sampled 0 executed 0 grounded 0 verified 0 rejected 0",
        "generate 0/50 tasks, 12 s: sampled 0 executed 0 grounded 0 verified 0 rejected 0",
    ]
