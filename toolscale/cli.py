"""The `toolscale` command line: a thin shell, each subcommand calls one library function."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from toolscale.errors import ConfigError

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Generate, verify and publish multi-turn tool-use datasets for orchestrator models.",
)
console = Console(stderr=True)


class StageProgress:
    """A progress bar with live counts per stage, shown from the first finished chunk on (so
    that a configuration error prints alone)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Progress | None = None

    def update(self, counts: dict[str, int]) -> None:
        if self.bar is None:
            columns = (TextColumn("generate"), BarColumn(), TextColumn("{task.fields[stages]}"))
            self.bar = Progress(*columns, TimeElapsedColumn(), console=console)
            self.bar.start()
            self.job = self.bar.add_task("generate", total=self.total, stages="")
        stages = " ".join(
            f"{k} {counts.get(k, 0)}" for k in ("sampled", "executed", "grounded", "verified")
        )
        rejected = sum(v for k, v in counts.items() if k.startswith("rejected:"))
        done = counts.get("sampled", 0) + counts.get("sample_failed", 0)
        self.bar.update(self.job, completed=done, stages=f"{stages} rejected {rejected}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def fail(message: str, code: int = 2) -> NoReturn:
    console.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@app.command()
def generate(
    out: Annotated[Path, typer.Option(help="Output folder (new or empty, or with --resume).")],
    domains: Annotated[str, typer.Option(help='Comma-separated domain names, or "all".')] = "all",
    num_tasks: Annotated[int, typer.Option(help="Tasks in total, split over the domains.")] = 200,
    teacher: Annotated[str, typer.Option(help="Who plays the agent: reference.")] = "reference",
    detours: Annotated[bool, typer.Option(help="Also play correct but costlier routes.")] = False,
    seed: Annotated[int, typer.Option(help="Run seed; every task derives from it.")] = 0,
    resume: Annotated[bool, typer.Option(help="Continue an interrupted run in --out.")] = False,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
    chunk_size: Annotated[int, typer.Option(help="Tasks per shard (the unit of --resume).")] = 50,
) -> None:
    """Sample tasks, let the teacher attempt them in the sandbox, verify, write the dataset."""
    from toolscale.generate import GenerateConfig
    from toolscale.generate import generate as run

    config = GenerateConfig(
        domains=[d for d in domains.split(",")] if domains != "all" else ["all"],
        num_tasks=num_tasks,
        out=out,
        teacher=teacher,
        detours=detours,
        seed=seed,
        resume=resume,
        workers=workers,
        chunk_size=chunk_size,
    )
    bar = StageProgress(total=num_tasks)
    try:
        summary = run(config, on_progress=bar.update)
    except ConfigError as exc:
        bar.stop()
        fail(str(exc))
    bar.stop()
    counts = summary["counts"]
    console.print(
        f"wrote {out}: {counts['sampled']} tasks, {counts['verified']} verified traces, "
        f"{sum(summary['rejected_by_stage'].values())} rejected",
        highlight=False,
    )


@app.command()
def validate(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
) -> None:
    """Re-verify every row (schema, ids, grounding replay, verdict, metrics); exit 1 on a fault."""
    from toolscale.validate import validate_output

    try:
        report = validate_output(out, workers=workers)
    except ConfigError as exc:
        fail(str(exc))
    for row_id, problem in report.problems:
        console.print(f"{row_id}: {problem}", highlight=False, soft_wrap=True)
    if report.problems:
        bad = sorted({row_id for row_id, _ in report.problems})
        fail(f"{len(bad)} of {report.rows} rows failed validation: {', '.join(bad)}", code=1)
    console.print(f"{report.rows} rows valid", highlight=False)


@app.command("domains")
def list_domains() -> None:
    """List the installed domains with their tool and task-template counts."""
    from toolscale.registry import registered

    try:
        found = registered()
    except ConfigError as exc:
        fail(str(exc))
    table = Table("domain", "version", "family", "tools", "templates")
    for name, cls in found.items():
        table.add_row(
            name, cls.version, cls.family, str(len(cls.toolkit.specs())), str(len(cls.templates))
        )
    Console().print(table)


def main() -> None:
    sys.exit(app())
