"""What `toolscale generate` shows while it runs and when it fails: a live progress bar with counts
per stage, and the run's first domain errors with a traceback; every command's `error:` line
and its line for a run stopped at `--max-cost-usd`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column

from toolscale.stats.run_stats import RunStats

if TYPE_CHECKING:
    from toolscale.pipeline.driver import Command

# Every command's messages go to stderr, never wrapped (a log or a pipe gets whole lines);
# `toolscale --quiet` silences it, but not `fail`.
console = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One `error:` line (shown under --quiet too), then exit with `code` (2: bad input)."""
    Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {message}", highlight=False)
    raise typer.Exit(code)


def budget_stopped(command: Command, reason: str) -> NoReturn:
    """What a run stopped at `--max-cost-usd` says (`Command.budget_line`), then exit 3."""
    console.print(command.budget_line(reason), highlight=False)
    raise typer.Exit(3)


def run_funnel(command: Command, run: Callable[[], dict[str, Any]], out: Any, stage: str) -> None:
    """Run a funnel command (synthesize, synthesize-domain): a ConfigError is one `error:` line,
    a budget stop its line and exit 3; then "wrote OUT: " and the funnel's counts in order."""
    from toolscale.core.errors import ConfigError
    from toolscale.pipeline.driver import BudgetStop

    try:
        summary = run()
    except ConfigError as exc:
        fail(str(exc))
    except BudgetStop as stopped:
        budget_stopped(command, stopped.summary["stop_reason"])
    funnel = summary[stage]["funnel"]
    counts = " -> ".join(f"{k.replace('_', ' ')} {v}" for k, v in funnel.items())
    console.print(f"wrote {out}: {counts}", highlight=False)


LOG_EVERY_S = 10.0  # where stderr is no terminal (a log file, CI), a plain line this often


class RowCount:
    """`validate`'s progress: a plain line "validate: N/M rows checked" every `every` seconds
    and, once one was shown, at the last row; a check done (or failed) sooner prints none."""

    def __init__(self, every: float = LOG_EVERY_S, out: Console = console) -> None:
        self._every, self._out = every, out
        self._shown = time.monotonic()
        self._any = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._shown >= self._every or (done == total and self._any):
            self._shown, self._any = now, True
            self._out.print(f"validate: {done}/{total} rows checked", highlight=False)


class StageProgress:
    """A progress bar with live counts per stage, shown from the first finished task on (so
    that a configuration error prints alone); for an LLM teacher also its requests and the
    completion tokens per second since the command started. The counts wrap onto further lines
    on a narrow terminal (rich measures its width) rather than being cut off. Where stderr is no
    terminal (a log file, a pipe) there is no bar: the same counts are printed as one plain line
    at the first finished task and then every LOG_EVERY_S seconds. Nothing under --quiet."""

    def __init__(self, total: int, out: Console = console) -> None:
        self.total = total
        self.out = out
        self.bar: Progress | None = None
        self.started = time.monotonic()
        self.logged: float | None = None

    def update(self, stats: RunStats, endpoints: dict[str, Any] | None = None) -> None:
        if self.out.quiet:
            return
        if self.bar is None and self.out.is_terminal:
            counts = TextColumn("{task.fields[stages]}", table_column=Column(overflow="fold"))
            columns = (TextColumn("generate"), BarColumn(bar_width=20), TimeElapsedColumn(), counts)
            self.bar = Progress(*columns, console=self.out)
            self.bar.start()
            self.job = self.bar.add_task("generate", total=self.total, stages="")
        funnel = stats.funnel()
        stages = " ".join(
            f"{k} {getattr(funnel, k)}" for k in ("sampled", "executed", "grounded", "verified")
        )
        rejected = sum(stats.rejected_by_stage.values())
        errors = funnel.sample_failed + funnel.tool_crashes
        shown = f"{stages} rejected {rejected}" + (f" errors {errors}" if errors else "")
        teacher = (endpoints or {}).get("teacher")
        if teacher:
            rate = teacher["completion_tokens"] / max(time.monotonic() - self.started, 1e-9)
            requests = f"requests {teacher['requests']} ({teacher['cached']} cached)"
            shown += f" | {requests} {rate:.1f} tok/s"
        done = funnel.sampled + funnel.sample_failed
        if self.bar is not None:
            self.bar.update(self.job, completed=done, stages=shown)
        now = time.monotonic()
        if not self.out.is_terminal and (self.logged is None or now - self.logged >= LOG_EVERY_S):
            self.logged = now
            line = f"generate {done}/{self.total} tasks, {now - self.started:.0f} s: {shown}"
            self.out.print(line, highlight=False, markup=False)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


ERRORS_SHOWN = 5


def show_errors(summary: dict[str, Any]) -> None:
    """The run's first domain errors, one line each, then the traceback of the first."""
    errors = summary.get("errors", [])
    if not errors:
        return
    total = summary.get("sample_failures", 0) + summary.get("tool_crashes", 0)
    console.print(f"{total} domain errors; the first:", highlight=False)
    for error in errors[:ERRORS_SHOWN]:
        line = f"{error['domain']} task {error['index']} ({error['stage']}): {error['message']}"
        console.print(f"  {line}", highlight=False, soft_wrap=True, markup=False)
    console.print(errors[0]["traceback"].rstrip(), highlight=False, soft_wrap=True, markup=False)
