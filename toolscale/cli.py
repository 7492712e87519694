"""The `toolscale` command line: a thin shell, each subcommand calls one library function."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from toolscale.config import with_run_config
from toolscale.errors import ConfigError

if TYPE_CHECKING:
    from toolscale.run_stats import RunStats

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Generate, verify and publish multi-turn tool-use datasets for orchestrator models.",
)
console = Console(stderr=True)


class StageProgress:
    """A progress bar with live counts per stage, shown from the first finished task on (so
    that a configuration error prints alone); for an LLM teacher also its requests and the
    completion tokens per second since the command started."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Progress | None = None
        self.started = time.monotonic()

    def update(self, stats: RunStats, endpoints: dict[str, Any] | None = None) -> None:
        if self.bar is None:
            columns = (TextColumn("generate"), BarColumn(), TextColumn("{task.fields[stages]}"))
            self.bar = Progress(*columns, TimeElapsedColumn(), console=console)
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
        self.bar.update(self.job, completed=funnel.sampled + funnel.sample_failed, stages=shown)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# Endpoint options `generate` and `synthesize` share, declared once.
BaseUrlOption = Annotated[
    list[str] | None,
    typer.Option(help="OpenAI-compatible endpoint URL; repeat for endpoints of one model."),
]
EndpointConcurrencyOption = Annotated[
    int | None, typer.Option(help="Requests in flight per --base-url [--concurrency].")
]
EndpointMaxFailuresOption = Annotated[
    int, typer.Option(help="Failed requests in a row that take an endpoint out of rotation.")
]
ModelOption = Annotated[
    str | None, typer.Option(help="Endpoint model name; for --teacher local a model folder.")
]
KeyEnvOption = Annotated[str, typer.Option(help="Environment variable holding the endpoint's key.")]
TopPOption = Annotated[float | None, typer.Option(help="Nucleus sampling top-p.")]
TimeoutOption = Annotated[
    float | None, typer.Option(help="Seconds per request try [60; local: 600].")
]
RetriesOption = Annotated[int, typer.Option(help="Retries per request (429/5xx/...).")]
RetryBaseOption = Annotated[float, typer.Option(help="First backoff delay in seconds.")]
PriceInOption = Annotated[float, typer.Option(help="$ per 1M prompt tokens.")]
PriceOutOption = Annotated[float, typer.Option(help="$ per 1M completion tokens.")]
MaxCostOption = Annotated[
    float | None, typer.Option(help="Stop (resumably) once the endpoints cost this much.")
]
CacheDirOption = Annotated[
    Path | None, typer.Option(help="Request cache folder [OUT/.toolscale/cache].")
]
UserKeyEnvOption = Annotated[
    str | None, typer.Option(help="User-simulator key variable [--api-key-env].")
]
ConfigOption = Annotated[
    Path | None, typer.Option(help="YAML run config holding any of these options.")
]


def fail(message: str, code: int = 2) -> NoReturn:
    console.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


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


@app.command()
@with_run_config
def generate(
    ctx: typer.Context,
    out: Annotated[
        Path | None, typer.Option(help="Output folder (new or empty, or with --resume).")
    ] = None,
    domains: Annotated[str, typer.Option(help='Comma-separated domain names, or "all".')] = "all",
    split: Annotated[
        str | None, typer.Option(help="tau2 domains: only the tasks of this split (docs/tau2.md).")
    ] = None,
    tau2_tasks: Annotated[
        Path | None,
        typer.Option(help="tau2 domains: tasks from this tau2 task file or ToolScale rows file."),
    ] = None,
    num_tasks: Annotated[int, typer.Option(help="Tasks in total, split over the domains.")] = 200,
    teacher: Annotated[
        str, typer.Option(help="Who plays the agent: reference, openai or local.")
    ] = "reference",
    detours: Annotated[bool, typer.Option(help="Also play correct but costlier routes.")] = False,
    seed: Annotated[int, typer.Option(help="Run seed; every task derives from it.")] = 0,
    resume: Annotated[bool, typer.Option(help="Continue an interrupted run in --out.")] = False,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
    chunk_size: Annotated[int, typer.Option(help="Tasks per shard (the unit of --resume).")] = 50,
    shard: Annotated[
        str | None,
        typer.Option(help="Produce only job I's part of N, e.g. 0/4; join with toolscale merge."),
    ] = None,
    executor: Annotated[
        str, typer.Option(help="Where chunks run: local (this process) or ray (docs/scale.md).")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(help="Ray cluster HOST:PORT or auto [--executor ray: a local Ray instance]."),
    ] = None,
    profiles: Annotated[
        str, typer.Option(help='Preference profiles and weights, e.g. "none=1,hurry=2", or "all".')
    ] = "all",
    reward_weights: Annotated[
        str, typer.Option(help='Reward weights, e.g. "w_o=1,w_e=1,w_p=1" (the default).')
    ] = "",
    reward_options: Annotated[
        str, typer.Option(help='Other reward settings, e.g. "efficiency=cost" (docs/rewards.md).')
    ] = "",
    price_schedules: Annotated[
        str,
        typer.Option(
            help="Price schedules each task draws one of: standard, open_weights, premium, seed, "
            "or a schedule YAML file (docs/rewards.md)."
        ),
    ] = "standard,open_weights,premium",
    tool_dropout: Annotated[
        float, typer.Option(help="Chance that a task drops each tool its gold route does not use.")
    ] = 0.0,
    max_sample_failure_share: Annotated[
        float,
        typer.Option(help="Share of samples that may fail (domain bugs) before the run fails."),
    ] = 0.1,
    # LLM teachers (docs/teachers.md)
    base_url: BaseUrlOption = None,
    model: ModelOption = None,
    api_key_env: KeyEnvOption = "OPENAI_API_KEY",
    attempts: Annotated[int, typer.Option(help="Sampled attempts per task (LLM teachers).")] = 1,
    temperature: Annotated[
        float | None, typer.Option(help="Sampling temperature [0 for 1 attempt, else 1].")
    ] = None,
    top_p: TopPOption = None,
    max_tokens: Annotated[
        int | None, typer.Option(help="Most tokens per teacher answer [1024; local: 256].")
    ] = None,
    max_turns: Annotated[int, typer.Option(help="Most teacher answers per attempt.")] = 12,
    concurrency: Annotated[
        int | None, typer.Option(help="Attempts in flight at once [64; local: 2].")
    ] = None,
    endpoint_concurrency: EndpointConcurrencyOption = None,
    endpoint_max_failures: EndpointMaxFailuresOption = 3,
    request_timeout: TimeoutOption = None,
    max_retries: RetriesOption = 4,
    retry_base: RetryBaseOption = 0.5,
    teacher_price_in: PriceInOption = 0.0,
    teacher_price_out: PriceOutOption = 0.0,
    max_cost_usd: MaxCostOption = None,
    cache_dir: CacheDirOption = None,
    user_model: Annotated[
        str | None, typer.Option(help="User-simulator model (tasks with a user scenario).")
    ] = None,
    user_base_url: Annotated[
        str | None, typer.Option(help="User-simulator endpoint [the teacher's].")
    ] = None,
    user_api_key_env: UserKeyEnvOption = None,
    experts: Annotated[
        Path | None, typer.Option(help="YAML: expert alias -> endpoint (docs/teachers.md).")
    ] = None,
    judge_model: Annotated[
        str | None,
        typer.Option(help="tau2 domains: LLM judge model for nl_assertions (docs/tau2.md)."),
    ] = None,
    judge_base_url: Annotated[
        str | None, typer.Option(help="Judge endpoint [the teacher's --base-url].")
    ] = None,
    judge_api_key_env: Annotated[
        str | None, typer.Option(help="Judge key variable [--api-key-env].")
    ] = None,
    tasks_from: Annotated[
        Path | None,
        typer.Option(help="Play the accepted tasks of a toolscale synthesize output instead."),
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Sample tasks, let the teacher attempt them in the sandbox, verify, write the dataset."""
    from toolscale.generate import GenerateConfig, RunFailed, planned_tasks
    from toolscale.generate import generate as run
    from toolscale.preferences import parse_spread
    from toolscale.prices import check_dropout, parse_schedules
    from toolscale.rewards import parse_reward_config
    from toolscale.shard import Shard
    from toolscale.tau2.spec import apply_options

    if out is None:
        fail("--out is required (on the command line or in --config)")
    try:
        part = None if shard is None else Shard.parse(shard)
        names = apply_options(domains, split, None if tau2_tasks is None else str(tau2_tasks))
        spread = parse_spread(profiles)
        reward = parse_reward_config(reward_weights, reward_options)
        schedules = [s.strip() for s in price_schedules.split(",") if s.strip()]
        parse_schedules(price_schedules)
        check_dropout(tool_dropout)
    except ConfigError as exc:
        fail(str(exc))

    config = GenerateConfig(
        domains=names,
        num_tasks=num_tasks,
        out=out,
        teacher=teacher,
        detours=detours,
        seed=seed,
        resume=resume,
        workers=workers,
        chunk_size=chunk_size,
        shard=part,
        executor=executor,
        ray_address=ray_address,
        profiles=spread,
        reward=reward,
        price_schedules=schedules,
        tool_dropout=tool_dropout,
        max_sample_failure_share=max_sample_failure_share,
        base_url=tuple(base_url) if base_url else None,
        model=model,
        api_key_env=api_key_env,
        attempts=attempts,
        temperature=temperature,
        top_p=top_p,
        max_tokens=max_tokens,
        max_turns=max_turns,
        concurrency=concurrency,
        endpoint_concurrency=endpoint_concurrency,
        endpoint_max_failures=endpoint_max_failures,
        request_timeout_s=request_timeout,
        max_retries=max_retries,
        retry_base_s=retry_base,
        teacher_price_in=teacher_price_in,
        teacher_price_out=teacher_price_out,
        max_cost_usd=max_cost_usd,
        cache_dir=cache_dir,
        user_model=user_model,
        user_base_url=user_base_url,
        user_api_key_env=user_api_key_env,
        experts=experts,
        tasks_from=tasks_from,
        judge_base_url=judge_base_url,
        judge_model=judge_model,
        judge_api_key_env=judge_api_key_env,
    )
    bar = StageProgress(total=num_tasks)
    try:
        if part is not None:
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
        console.print(
            f"stopped: {summary['stop_reason']}; finished chunks are kept; continue with "
            "--resume and a higher --max-cost-usd (cached requests cost nothing)",
            highlight=False,
        )
        raise typer.Exit(3)


@app.command()
@with_run_config
def synthesize(
    ctx: typer.Context,
    out: Annotated[
        Path | None, typer.Option(help="Output folder (new or empty, or with --resume).")
    ] = None,
    domains: Annotated[str, typer.Option(help='Stateful domains, comma-separated, or "all".')] = (
        "railway"
    ),
    teacher: Annotated[str, typer.Option(help="Who proposes: openai or local.")] = "openai",
    num_tasks: Annotated[
        int, typer.Option(help="Intents (candidate tasks) asked for, split over the domains.")
    ] = 20,
    evolve: Annotated[int, typer.Option(help="Rounds of making executing tasks harder.")] = 0,
    solver_attempts: Annotated[
        int, typer.Option(help="K: solver attempts per task; kept if solved at least once.")
    ] = 8,
    seed: Annotated[int, typer.Option(help="Run seed (worlds, samples shown to the model).")] = 0,
    resume: Annotated[bool, typer.Option(help="Continue or replay a run in --out.")] = False,
    decontaminate: Annotated[
        Path | None, typer.Option(help="Folder of tau2-format task files to keep away from.")
    ] = None,
    dedup_threshold: Annotated[
        float, typer.Option(help="MinHash Jaccard at which two tasks are near-duplicates.")
    ] = 0.8,
    intents_per_request: Annotated[int, typer.Option(help="Intents asked per request.")] = 8,
    world_chars: Annotated[
        int, typer.Option(help="Characters of the world sample shown per prompt.")
    ] = 4000,
    shard: Annotated[
        str | None,
        typer.Option(help="Produce only job I's part of N, e.g. 0/4; join with toolscale merge."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
    base_url: BaseUrlOption = None,
    model: ModelOption = None,
    api_key_env: KeyEnvOption = "OPENAI_API_KEY",
    solver_base_url: Annotated[
        str | None, typer.Option(help="Solver endpoint [the proposer's].")
    ] = None,
    solver_model: Annotated[str | None, typer.Option(help="Solver model [the proposer's].")] = None,
    solver_api_key_env: Annotated[
        str | None, typer.Option(help="Solver key variable [--api-key-env].")
    ] = None,
    solver_temperature: Annotated[
        float | None, typer.Option(help="Solver temperature [1 for K > 1, else 0].")
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help="Proposer sampling temperature [1].")
    ] = None,
    top_p: TopPOption = None,
    max_tokens: Annotated[int, typer.Option(help="Most tokens per answer.")] = 1024,
    max_turns: Annotated[int, typer.Option(help="Most solver answers per attempt.")] = 12,
    concurrency: Annotated[
        int | None, typer.Option(help="Requests / attempts in flight [64; local: 2].")
    ] = None,
    endpoint_concurrency: EndpointConcurrencyOption = None,
    endpoint_max_failures: EndpointMaxFailuresOption = 3,
    request_timeout: TimeoutOption = None,
    max_retries: RetriesOption = 4,
    retry_base: RetryBaseOption = 0.5,
    teacher_price_in: PriceInOption = 0.0,
    teacher_price_out: PriceOutOption = 0.0,
    max_cost_usd: MaxCostOption = None,
    cache_dir: CacheDirOption = None,
    user_model: Annotated[
        str | None, typer.Option(help="User-simulator model for the solver [scripted user].")
    ] = None,
    user_base_url: Annotated[
        str | None, typer.Option(help="User-simulator endpoint [the proposer's].")
    ] = None,
    user_api_key_env: UserKeyEnvOption = None,
    config: ConfigOption = None,
) -> None:
    """An LLM proposes tasks over a domain's tools and world; execution, a do-nothing check,
    de-duplication and K solver attempts filter them (docs/synthesize.md)."""
    from toolscale.synthesis.config import SynthesizeConfig
    from toolscale.synthesis.run import BudgetStop
    from toolscale.synthesis.run import synthesize as run

    if out is None:
        fail("--out is required (on the command line or in --config)")
    from toolscale.shard import Shard

    try:
        part = None if shard is None else Shard.parse(shard)
    except ConfigError as exc:
        fail(str(exc))
    settings = SynthesizeConfig(
        domains=domains.split(","),
        num_tasks=num_tasks,
        out=out,
        teacher=teacher,
        seed=seed,
        resume=resume,
        evolve=evolve,
        solver_attempts=solver_attempts,
        solver_base_url=solver_base_url,
        solver_model=solver_model,
        solver_api_key_env=solver_api_key_env,
        solver_temperature=solver_temperature,
        decontaminate=decontaminate,
        dedup_threshold=dedup_threshold,
        intents_per_request=intents_per_request,
        world_chars=world_chars,
        workers=workers,
        base_url=tuple(base_url) if base_url else None,
        model=model,
        api_key_env=api_key_env,
        temperature=temperature,
        top_p=top_p,
        max_tokens=max_tokens,
        max_turns=max_turns,
        concurrency=concurrency,
        endpoint_concurrency=endpoint_concurrency,
        endpoint_max_failures=endpoint_max_failures,
        request_timeout_s=request_timeout,
        max_retries=max_retries,
        retry_base_s=retry_base,
        teacher_price_in=teacher_price_in,
        teacher_price_out=teacher_price_out,
        max_cost_usd=max_cost_usd,
        cache_dir=cache_dir,
        user_model=user_model,
        user_base_url=user_base_url,
        user_api_key_env=user_api_key_env,
        shard=part,
    )
    try:
        summary = run(settings)
    except ConfigError as exc:
        fail(str(exc))
    except BudgetStop as stopped:
        console.print(
            f"stopped: {stopped.summary['stop_reason']}; continue with --resume and a higher "
            "--max-cost-usd (cached requests cost nothing)",
            highlight=False,
        )
        raise typer.Exit(3) from None
    funnel = summary["synthesis"]["funnel"]
    console.print(
        f"wrote {out}: " + " -> ".join(f"{k.replace('_', ' ')} {v}" for k, v in funnel.items()),
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


@app.command("merge")
def merge_command(
    outs: Annotated[list[Path], typer.Argument(help="The --out folders of one run's shard jobs.")],
    out: Annotated[Path, typer.Option(help="New or empty folder for the merged output.")],
) -> None:
    """Join the outputs of generate (or synthesize) --shard jobs into one, equal to an unsharded
    run."""
    from toolscale.merge import merge

    try:
        summary = merge(outs, out)
    except ConfigError as exc:
        fail(str(exc))
    if summary.get("command") == "synthesize":
        funnel = summary["synthesis"]["funnel"]
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


@app.command("check-domain")
def check_domain_command(
    name: Annotated[str, typer.Argument(help="An installed (or TOOLSCALE_DOMAINS) domain.")],
    tasks: Annotated[int, typer.Option(help="Tasks to sample and play.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the sampled tasks.")] = 0,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
    strict: Annotated[
        bool, typer.Option(help="Count warnings (tools in no route) as problems.")
    ] = False,
    split: Annotated[str | None, typer.Option(help="tau2 domains: tasks of this split.")] = None,
    tau2_tasks: Annotated[
        Path | None, typer.Option(help="tau2 domains: tasks from this task or rows file.")
    ] = None,
) -> None:
    """Run the domain contract's checks (schemas, gold verifies, READ purity, determinism, doing
    nothing fails, every tool reachable): one line per problem; exit 1 when any."""
    from toolscale.check_domain import check_domain, first_traceback
    from toolscale.tau2.spec import apply_options

    try:
        name = apply_options(name, split, None if tau2_tasks is None else str(tau2_tasks))[0]
        report = check_domain(name, tasks=tasks, seed=seed, workers=workers, strict=strict)
    except ConfigError as exc:
        fail(str(exc))
    for line in report.lines():
        console.print(line, highlight=False, soft_wrap=True, markup=False)
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
    console.print(f"domain {name!r}: {report.tasks} tasks checked, no problem{warned}")


@app.command("card")
def card_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    repo_id: Annotated[str | None, typer.Option(help="Hub id for the loading example.")] = None,
    license: Annotated[str, typer.Option(help="Licence the card declares.")] = "apache-2.0",
) -> None:
    """(Re)write OUT/README.md, the dataset card, from run.json and the data."""
    from toolscale.card import card

    try:
        path = card(out, repo_id=repo_id, license_id=license)
    except ConfigError as exc:
        fail(str(exc))
    console.print(f"wrote {path}", highlight=False)


@app.command("check-rewards")
def check_rewards_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    tasks: Annotated[int, typer.Option(help="Tasks per domain to play.")] = 100,
    workers: Annotated[int, typer.Option(help="Sandbox worker processes.")] = 2,
) -> None:
    """Play scripted gaming policies on OUT's tasks; write OUT/reward_check.json; exit 1 if one
    wins. Rewrites the card with the table."""
    from toolscale.card import card
    from toolscale.reward_check import check_rewards

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


@app.command("push")
def push_command(
    out: Annotated[Path, typer.Argument(help="A complete toolscale output folder.")],
    repo_id: Annotated[str, typer.Option(help="Dataset repository ORG/NAME.")],
    private: Annotated[bool, typer.Option(help="Create the repository private.")] = False,
    revision: Annotated[str | None, typer.Option(help="Branch to commit to.")] = None,
    dry_run: Annotated[bool, typer.Option(help="Check and list files; upload nothing.")] = False,
    license: Annotated[str, typer.Option(help="Licence the card declares.")] = "apache-2.0",
) -> None:
    """Check that every config loads, re-render the card, upload to the Hugging Face Hub."""
    from toolscale.push import PushError, push

    try:
        result = push(
            out, repo_id, private=private, revision=revision, dry_run=dry_run, license_id=license
        )
    except ConfigError as exc:
        fail(str(exc))
    except PushError as exc:
        fail(str(exc), code=1)
    for name, size in result.files:
        console.print(f"{size:>12}  {name}", highlight=False)
    verb = "uploaded" if result.uploaded else "would upload (dry run)"
    console.print(f"{verb} {len(result.files)} files to {repo_id}", highlight=False)


@app.command("export")
def export_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    dest: Annotated[Path, typer.Argument(help="Folder to write into.")],
    format: Annotated[str, typer.Option(help="tau2 (task files) or sft (chat JSONL).")] = "tau2",
) -> None:
    """Write the dataset as tau2-bench task files or as chat-format JSONL for SFT."""
    from toolscale.export import export

    try:
        written = export(out, dest, format)
    except ConfigError as exc:
        fail(str(exc))
    console.print(f"wrote {len(written)} files under {dest}", highlight=False)


def main() -> None:
    sys.exit(app())
