"""The run driver every command shares: the steps around each command's own work.

A command (`generate`, `synthesize`, `synthesize-domain`) is described once, by a `Command`:
its name (run.json's `command`), the options a `--resume` must keep, the run.json sections it
adds to the head, and what a stopped run keeps. After checking its own options, each command:
refuses to resume another command's OUT or a run with other options (`Command.check_same_run`)
or one its own checks refuse (generate's chunks), leaving OUT as it was; probes every endpoint
once before OUT is touched (`probe_endpoints`; not the local server, which the run starts and
asks itself), opens OUT (`open_output`: new, or resumed), serves the
local model while the run lasts (`local_endpoint`), writes run.json (`Command.run_json`: the
same head, then the command's sections) and ends a stopped run the same way (`Command.end`:
`BudgetStop` at `--max-cost-usd`, ConfigError for another stop). This module decides nothing
about tasks, rows or failures.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from toolscale.config.provenance import run_versions
from toolscale.core.errors import ConfigError
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.probe import probe
from toolscale.sandbox.guard import isolation_warning
from toolscale.sandbox.isolation import isolation_level
from toolscale.write.output import Output

GENERATE = "generate"  # the command a run.json without `command` was written by
HEAD = ("status", "command", "config", "isolation", "isolation_warning", "versions")
STOP_REASON = "stop_reason"  # run.json's sentence on why a run stopped early (any command)


class RunConfig(Protocol):
    """What the driver reads of a command's config (`GenerateConfig`, `SynthesizeConfig`, and
    `synthesize-domain`'s)."""

    @property
    def teacher(self) -> str: ...
    @property
    def model(self) -> str | None: ...
    @property
    def out(self) -> Path: ...
    @property
    def resume(self) -> bool: ...
    @property
    def domains(self) -> Sequence[str]: ...
    def resolved(self) -> dict[str, Any]: ...


class Endpoints(Protocol):
    """A run's endpoint pools by role, and how to close them (with their cache)."""

    @property
    def clients(self) -> Mapping[str, EndpointPool]: ...
    async def aclose(self) -> None: ...


class BudgetStop(Exception):
    """The run stopped at `--max-cost-usd`; `summary` is run.json's content."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__(summary.get(STOP_REASON, ""))
        self.summary = summary


def written_by(run: Mapping[str, Any]) -> str:
    """The command that wrote a run.json (generate's does not say)."""
    return str(run.get("command", GENERATE))


@dataclass(frozen=True)
class Command:
    """One command as the driver runs it.

    `resume_keys`: the resolved options a `--resume` must keep (they change the rows).
    `sections`: run.json's keys after the head, the first holding the funnel for synthesize's
    commands. `kept`: what a stopped run keeps, said in its messages ("" when nothing is).
    `model_writes_code`: whether the command's own runs execute model-written code (for
    generate, the teacher decides: `run_json`'s argument wins)."""

    name: str
    resume_keys: tuple[str, ...]
    sections: tuple[str, ...]
    kept: str = ""
    model_writes_code: bool = False

    def check_same_run(self, output: Output, config: RunConfig) -> None:
        """ConfigError when OUT holds a run of another command, or this command's run with
        other `resume_keys`; nothing when OUT is no toolscale output or holds no run.json
        (`Output.prepare` judges those)."""
        path = output.root / "run.json"
        if not output.is_toolscale_output() or not path.is_file():
            return
        try:
            previous = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(
                f"{path} cannot be read ({exc}); resume only a folder a finished or stopped run "
                "wrote, or choose another --out"
            ) from None
        other = written_by(previous)
        if other != self.name:
            raise ConfigError(
                f"{output.root} holds a {other} output, not a {self.name} one; choose another --out"
            )
        before, current = previous.get("config", {}), config.resolved()
        for key in self.resume_keys:
            if before.get(key) != current[key]:
                raise ConfigError(
                    f"{output.root} was written by {self.name} with {key}={before.get(key)!r}, "
                    f"not {current[key]!r}; resume with the same options or choose another --out"
                )

    def run_json(
        self,
        config: RunConfig,
        status: str,
        sections: Mapping[str, Any] | None = None,
        model_writes_code: bool | None = None,
    ) -> dict[str, Any]:
        """run.json: the head every command writes (status, the command unless generate, the
        resolved config, the sandbox's isolation level and any warning about it, versions),
        then `sections`, each one this command declares (ValueError otherwise: a bug)."""
        unknown = sorted(set(sections or {}) - set(self.sections))
        if unknown:
            raise ValueError(f"{self.name} declares no run.json section {', '.join(unknown)}")
        writes_code = self.model_writes_code if model_writes_code is None else model_writes_code
        head: dict[str, Any] = {"status": status}
        if self.name != GENERATE:
            head["command"] = self.name
        head |= {"config": config.resolved(), "isolation": isolation_level()}
        warning = isolation_warning(config.domains, writes_code)
        if warning:  # model-written code ran below full isolation (the opt-in --isolation)
            head["isolation_warning"] = warning
        head["versions"] = run_versions()
        return head | dict(sections or {})

    def budget_line(self, reason: str) -> str:
        """What the command line says of a run stopped at `--max-cost-usd`."""
        kept = f"{self.kept} are kept; " if self.kept else ""
        return (
            f"stopped: {reason}; {kept}continue with --resume and a higher --max-cost-usd "
            "(cached requests cost nothing)"
        )

    def end(self, summary: dict[str, Any]) -> dict[str, Any]:
        """`summary` for a complete run; BudgetStop for one stopped at `--max-cost-usd`,
        ConfigError for one stopped otherwise (an endpoint refused, a limit)."""
        if summary["status"] == "budget_exhausted":
            raise BudgetStop(summary)
        if summary["status"] == "stopped":
            kept = f"{self.kept} are kept; " if self.kept else ""
            raise ConfigError(f"{summary[STOP_REASON]}; {kept}fix it and run {self.name} --resume")
        return summary


async def probe_endpoints(endpoints: Endpoints) -> None:
    """Ask every pool of `endpoints` once (`toolscale.llm.probe`), then close them: ConfigError
    when a role's endpoints do not answer."""
    try:
        await probe(endpoints.clients)
    finally:
        await endpoints.aclose()


def open_output(
    command: Command,
    config: RunConfig,
    endpoints: Callable[[], Endpoints],
    check_resumed: Callable[[Output], None] | None = None,
) -> Output:
    """OUT prepared for the run. First, for `--resume`, `command` reads OUT's run.json and
    refuses another command's run or other options (`Command.check_same_run`), and
    `check_resumed` checks the rest of a resumed toolscale OUT (generate's chunks); then every
    endpoint of `endpoints()` is asked once (not the local server's, which the run starts and
    asks itself); all fail with ConfigError before anything is sent or written, so a refused
    resume leaves OUT as it was."""
    output = Output(config.out)
    if config.resume:
        command.check_same_run(output, config)
        if check_resumed is not None and output.is_toolscale_output():
            check_resumed(output)
    if config.teacher != "local":

        async def ask() -> None:
            await probe_endpoints(endpoints())

        asyncio.run(ask())
    output.prepare(config.resume)
    return output


@contextmanager
def local_endpoint(config: RunConfig) -> Iterator[tuple[str, str] | None]:
    """For `--teacher local`: a started local server's (base_url, model), stopped on leaving."""
    if config.teacher != "local":
        yield None
        return
    from toolscale.llm.local.server import serve_local_model

    with serve_local_model(config.model) as server:
        yield server.base_url, server.model
