"""The `toolscale` command line: a thin shell, each subcommand calls one library function."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from toolscale.check.check_domain import CheckDomainConfig
from toolscale.cli.new_domain import new_domain_command
from toolscale.cli.options import GENERATE_FLAGS, argument, flag, flags_of
from toolscale.cli.progress import (
    RowCount,
    StageProgress,
    budget_stopped,
    console,
    fail,
    run_funnel,
    show_errors,
)
from toolscale.cli.publishing import card_command, export_command, push_command
from toolscale.cli.synthesize_domain import synthesize_domain_command
from toolscale.config.files import with_run_config
from toolscale.config.generate import GenerateConfig
from toolscale.config.option import from_flags
from toolscale.config.synthesize import SynthesizeConfig
from toolscale.core.errors import ConfigError

# The exceptions of the click typer runs on (typer 0.29 vendors its own), found from the public
# typer.BadParameter rather than a private module path.
_CLICK: dict[str, Any] = {c.__name__: c for c in typer.BadParameter.__mro__}
UsageError: Any = _CLICK["UsageError"]
ClickException: Any = _CLICK["ClickException"]


class Shell(typer.Typer):
    """The command line as a script runs it: click's usage errors (an unknown option or
    command, a value of the wrong type, a missing argument) become one `error:` line and exit 2,
    as every other mistake does, instead of a boxed panel."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("standalone_mode", True) is False:
            return super().__call__(*args, **kwargs)
        try:
            result = super().__call__(*args, standalone_mode=False, **kwargs)
        except UsageError as exc:  # click's exception: typed Any here
            where = exc.ctx.command_path if exc.ctx is not None else "toolscale"
            message = " ".join(exc.format_message().split())
            sys.stderr.write(f"error: {message} (see {where} --help)\n")
            sys.exit(2)
        except ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except typer.Abort:
            sys.stderr.write("aborted\n")
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)


app = Shell(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Generate, verify and publish multi-turn tool-use datasets for orchestrator models.",
)


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("toolscale")  # the installed distribution's, as pip reports it
        except PackageNotFoundError:
            found = "(not installed: run pip install -e . in the checkout)"
        print(f"toolscale {found}")
        raise typer.Exit()


@app.callback()
def root_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print errors only: no progress, no summaries.")
    ] = False,
) -> None:
    """Generate, verify and publish multi-turn tool-use datasets for orchestrator models."""
    console.quiet = quiet
    if quiet or not console.is_terminal:  # datasets' bars would bury what a command prints
        os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")


app.command("synthesize-domain")(synthesize_domain_command)


@app.command()
@flags_of(GenerateConfig, extra=GENERATE_FLAGS)
@with_run_config
def generate(ctx: typer.Context, **flags: Any) -> None:
    """Sample tasks, let the teacher attempt them in the sandbox, verify, write the dataset."""
    from toolscale.pipeline.generate import GENERATE_COMMAND, RunFailed
    from toolscale.pipeline.generate import generate as run
    from toolscale.pipeline.generate_options import generate_config
    from toolscale.pipeline.plan import planned_tasks

    out = flags["out"]
    try:
        config = generate_config(**{k: v for k, v in flags.items() if k not in ("ctx", "config")})
    except ConfigError as exc:
        fail(str(exc))
    bar = StageProgress(total=config.num_tasks)
    try:
        if config.shard is not None:
            bar.total = planned_tasks(config)
        summary = run(config, on_progress=bar.update)
    except ConfigError as exc:
        bar.stop()
        fail(str(exc))
    except RunFailed as failed:
        bar.stop()
        show_errors(failed.summary)
        for problem in failed.failures[:-1]:
            console.print(f"[red]error:[/red] {problem}", highlight=False, soft_wrap=True)
        fail(failed.failures[-1], code=1)
    bar.stop()
    show_errors(summary)
    counts = summary["counts"]
    console.print(
        f"wrote {out}: {counts['sampled']} tasks, {counts['verified']} verified traces, "
        f"{sum(summary['rejected_by_stage'].values())} rejected",
        highlight=False,
    )
    if summary["status"] == "budget_exhausted":
        budget_stopped(GENERATE_COMMAND, summary["stop_reason"])


@app.command()
@flags_of(SynthesizeConfig, skip=("attempts", "experts"))
@with_run_config
def synthesize(ctx: typer.Context, **flags: Any) -> None:
    """An LLM proposes tasks over a domain's tools and world; execution, a do-nothing check,
    de-duplication and K solver attempts filter them (docs/synthesize.md)."""
    from toolscale.synthesize.synthesis import SYNTHESIZE_COMMAND
    from toolscale.synthesize.synthesis import synthesize as run

    out = flags["out"]
    if out is None:
        fail("--out is required (on the command line or in --config)")
    try:
        settings = from_flags(SynthesizeConfig, flags)
    except ConfigError as exc:
        fail(str(exc))
    run_funnel(SYNTHESIZE_COMMAND, lambda: run(settings), out, "synthesis")


@app.command()
def validate(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
    isolation: Annotated[
        str,
        typer.Option(help="Weakest sandbox for replaying model-written code (docs/sandbox.md)."),
    ] = "bwrap",
) -> None:
    """Re-verify every row (schema, ids, grounding replay, verdict, metrics); exit 1 on a fault."""
    from toolscale.publish.validate import validate_output

    try:
        report = validate_output(out, workers=workers, isolation=isolation, progress=RowCount())
    except ConfigError as exc:
        fail(str(exc))
    for row_id, problem in report.problems:
        console.print(f"{row_id}: {problem}", highlight=False, soft_wrap=True)
    if report.problems:
        bad = sorted({row_id for row_id, _ in report.problems})
        fail(f"{len(bad)} of {report.rows} rows failed validation: {', '.join(bad)}", code=1)
    console.print(f"{report.rows} rows valid", highlight=False)


@app.command("merge")
def merge_command(
    outs: Annotated[list[Path], typer.Argument(help="The --out folders of one run's shard jobs.")],
    out: Annotated[Path, typer.Option(help="New or empty folder for the merged output.")],
) -> None:
    """Join the outputs of generate (or synthesize, or synthesize-domain) --shard jobs into one,
    equal to an unsharded run."""
    from toolscale.python_api import merge, mergers

    try:
        summary = merge(outs, out)
    except ConfigError as exc:
        fail(str(exc))
    funnels = {command.name: command.sections[0] for command in mergers()}  # the report first
    if summary.get("command") in funnels:
        funnel = summary[funnels[summary["command"]]]["funnel"]
        steps = " -> ".join(f"{k.replace('_', ' ')} {v}" for k, v in funnel.items())
        console.print(f"wrote {out}: {len(outs)} outputs merged: {steps}", highlight=False)
        return
    counts = summary["counts"]
    console.print(
        f"wrote {out}: {len(outs)} outputs merged, {counts['sampled']} tasks, "
        f"{counts['verified']} verified traces, {sum(summary['rejected_by_stage'].values())} "
        "rejected",
        highlight=False,
    )
    if summary.get("failures"):
        for problem in summary["failures"][:-1]:
            console.print(f"[red]error:[/red] {problem}", highlight=False, soft_wrap=True)
        fail(summary["failures"][-1], code=1)


@app.command("domains")
def list_domains() -> None:
    """List the installed domains with their tool and task-template counts."""
    from toolscale.core.registry import registered

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


CHECK_DOMAIN_EXTRA = (
    flag("split", str | None, None, "tau2 domains: tasks of this split."),
    flag("tau2_tasks", Path | None, None, "tau2 domains: tasks from this task or rows file."),
)


@app.command("check-domain")
@flags_of(
    CheckDomainConfig,
    arguments=[argument("name", str, "An installed (or TOOLSCALE_DOMAINS) domain.")],
    extra=CHECK_DOMAIN_EXTRA,
)
@with_run_config
def check_domain_command(ctx: typer.Context, name: str, **flags: Any) -> None:
    """Run the domain contract's checks (schemas, gold verifies, READ purity, determinism, doing
    nothing fails, every tool reachable, hostile arguments fail the call and not the tool) on
    tasks drawn by weight and on every template by name: one line per problem; exit 1 when any."""
    from toolscale.check.check_domain import check_domain, first_traceback
    from toolscale.tau2.spec import apply_options

    tau2_tasks = flags["tau2_tasks"]
    try:
        name = apply_options(name, flags["split"], None if tau2_tasks is None else str(tau2_tasks))[
            0
        ]
        report = check_domain(name, from_flags(CheckDomainConfig, flags))
    except ConfigError as exc:
        fail(str(exc))
    for line in report.lines():
        console.print(line, highlight=False, soft_wrap=True, markup=False)
    if report.coverage():
        console.print(report.coverage(), highlight=False, soft_wrap=True, markup=False)
    if report.problems:
        trace = first_traceback(report.problems)
        if trace:
            console.print(trace.rstrip(), highlight=False, soft_wrap=True, markup=False)
        count = sum(line.startswith("problem") for line in report.lines())
        fail(
            f"domain {name!r} has {count} problems (above); fix them and run toolscale "
            f"check-domain {name} again",
            code=1,
        )
    n = len(report.warnings)
    warned = f", {n} warning{'s' if n > 1 else ''}" if n else ""
    console.print(f"domain {name!r}: {report.checked()} checked, no problem{warned}")


app.command("new-domain")(new_domain_command)


app.command("card")(card_command)


@app.command("check-rewards")
def check_rewards_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    tasks: Annotated[int, typer.Option(help="Tasks per domain to play.")] = 100,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
) -> None:
    """Play scripted gaming policies on OUT's tasks; write OUT/reward_check.json; exit 1 if one
    wins. Rewrites the card with the table."""
    from toolscale.check.reward_check import check_rewards
    from toolscale.publish.card import card

    try:
        report = check_rewards(out, per_domain=tasks, workers=workers)
        card(out)
    except ConfigError as exc:
        fail(str(exc))
    for cell in report["table"]:
        means = cell["mean_reward_total"]
        gaming = max((v for k, v in means.items() if k.startswith("gaming:")), default=None)
        console.print(
            f"{cell['domain']:>10} {cell['profile']:<16} groups {cell['groups']:>3}  gold best "
            f"{cell['gold_best']:.0%}  gaming best {cell['gaming_best']}/"
            f"{cell['gaming_best_group']}  gold mean {means['gold']:.3f}  best gaming mean "
            f"{'n/a' if gaming is None else f'{gaming:.3f}'}",
            highlight=False,
        )
    for entry in report.get("unworked", []):
        console.print(
            f"{entry['domain']:>10} {entry['policy']:<22} verified on {entry['verified']}/"
            f"{entry['tasks']} tasks ({entry['share']:.1%}; at most 1%)",
            highlight=False,
        )
    if not report["passed"]:
        fail("a gaming policy matched or beat the gold route (see reward_check.json)", code=1)
    console.print(f"wrote {out / 'reward_check.json'}: no gaming policy wins", highlight=False)


app.command("push")(push_command)
app.command("export")(export_command)


@app.command("view")
def view_command(
    out: Annotated[str, typer.Argument(help="An output folder, or a Hub dataset id ORG/NAME.")],
    port: Annotated[int, typer.Option(help="Port to serve on (0: any free port).")] = 8765,
    host: Annotated[str, typer.Option(help="Address to bind; not loopback: warned.")] = "127.0.0.1",
    html: Annotated[Path | None, typer.Option(help="Write static pages here; no server.")] = None,
) -> None:
    """Browse an output's tasks and attempts in a local, read-only web page (docs/view.md)."""
    from toolscale.view.app import view

    try:
        view(
            out,
            host=host,
            port=port,
            html=html,
            say=lambda m: console.print(m, markup=False, highlight=False, soft_wrap=True),
        )
    except ConfigError as exc:
        fail(str(exc))


def main() -> None:
    sys.exit(app())
