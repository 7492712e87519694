"""The run driver `generate` and `synthesize` share: the steps around each command's own work.

Both commands, after checking their own options: probe every endpoint once before OUT is touched
(not the local server, which the run starts and asks itself), prepare OUT (new, or resumed after
the command's own check that it is the same run), serve the local model while the run lasts, and
write run.json with the same head (status, the command, the resolved config, the sandbox's
isolation level and any warning about it, versions). Each command adds its own sections to the
head; this module decides nothing about tasks, rows or failures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from toolscale.config.provenance import run_versions
from toolscale.sandbox.guard import isolation_warning
from toolscale.sandbox.isolation import isolation_level
from toolscale.write.output import Output


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


def open_output(
    config: RunConfig,
    probe: Callable[[], Coroutine[Any, Any, None]],
    same_run: Callable[[Output], None],
) -> Output:
    """OUT prepared for the run, after `probe` (every endpoint asked once; ConfigError, and
    nothing written, when one does not answer) and `same_run` (ConfigError for a resumed OUT
    another run wrote)."""
    if config.teacher != "local":  # the local server is started, and asked, by the run
        asyncio.run(probe())
    output = Output(config.out)
    if config.resume and output.is_toolscale_output():
        same_run(output)  # a resume that is another run is refused before OUT is touched
        output.prepare(True)
        return output
    output.prepare(config.resume)
    same_run(output)
    return output


def run_head(
    config: RunConfig, status: str, model_writes_code: bool, command: str | None = None
) -> dict[str, Any]:
    """The keys every run.json starts with; `command` is left out for generate (the default a
    reader assumes: `toolscale.pipeline.merge.command`)."""
    head: dict[str, Any] = {"status": status}
    if command is not None:
        head["command"] = command
    head |= {"config": config.resolved(), "isolation": isolation_level()}
    warning = isolation_warning(config.domains, model_writes_code)
    if warning:  # model-written code ran below full isolation (the opt-in --isolation)
        head["isolation_warning"] = warning
    head["versions"] = run_versions()
    return head


@contextmanager
def local_endpoint(config: RunConfig) -> Iterator[tuple[str, str] | None]:
    """For `--teacher local`: a started local server's (base_url, model), stopped on leaving."""
    if config.teacher != "local":
        yield None
        return
    from toolscale.llm.local.server import serve_local_model

    with serve_local_model(config.model) as server:
        yield server.base_url, server.model
