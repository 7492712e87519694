"""What one check of the judge reads and is: an attempt, its task, its domain and the run's
caches (`Seen`), and a named check of one stage (`Check`). The checks themselves, in the
order they run, are `toolscale.judge.checks`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from toolscale.core.contract import Domain
from toolscale.core.records import Message, Task, ToolCall
from toolscale.judge.readings import Readings
from toolscale.judge.validators import Validators
from toolscale.sandbox.pool import SandboxPool


class Attempt(Protocol):
    messages: list[Message]
    tool_calls: list[ToolCall]
    final_answer: str
    final_state_hash: str


def parsed_arguments(call: ToolCall) -> Any:
    """A call's arguments as JSON, or None where they are not JSON (or JSON Python refuses: a
    5,000-digit int)."""
    try:
        return json.loads(call.arguments)
    except (ValueError, RecursionError):
        return None


@dataclass(frozen=True)
class Seen:
    """One attempt as the checks read it: its task and the task's domain; the sandbox pool a
    replay runs on and whether to replay (`toolscale.judge.grounding`); what each text shows
    and each task's tool validators, kept for the run's next attempt (None: read afresh)."""

    task: Task
    attempt: Attempt
    domain: Domain
    pool: SandboxPool | None = None
    replay: bool = True
    readings: Readings | None = None
    validators: Validators | None = None


Problems = list[str] | Awaitable[list[str]]


@dataclass(frozen=True)
class Check:
    """One named check: `problems` says what is wrong with an attempt (nothing: it passes), and
    `stage` is the failure stage an attempt it rejects is recorded under. A check may be a
    coroutine function (the replay is)."""

    name: str
    stage: str
    problems: Callable[[Seen], Problems]
