"""TRL `environment_factory` classes: one per domain, each tool executed in the toolscale sandbox.

`reset(**row)` rebuilds the row's task (a `tasks` config row) and opens a fresh episode on a copy
of its initial state in the sandbox worker pool. The domain's tools become public methods with the
toolkit's own signatures and docstrings, so TRL derives the same schemas the dataset carries. Every
call is executed in the sandbox and recorded in a Transcript, which the reward functions hand to the
same verifier and labelers as generation. A stateful domain's environment also has `ask_user`:
TRL's tool loop has no user turn, so the policy talks to the task's scripted user through it.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from toolscale.core.records import Message, Task
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.judge.verify import Verdict
from toolscale.play import scripted_user
from toolscale.play.transcript import Transcript, close_draft, open_draft, record_call
from toolscale.sandbox.bridge import SandboxThread
from toolscale.sandbox.pool import Episode

TASK_FIELDS = tuple(Task.model_fields)
# TRL's rollouts have no user turn: a stateful environment reaches the task's (scripted) user
# through this tool, and SFT conversations are rendered the same way (trainer.data).
ASK_USER = "ask_user"


class ToolscaleEnvironment:
    """Base of the generated per-domain environments. TRL turns every public method into a
    tool, so everything here but `reset` is private or a property."""

    sandbox: SandboxThread  # set on the generated subclass
    worlds: Mapping[str, dict[str, Any]]  # the dataset's worlds, id -> state (same)

    def reset(self, **row: Any) -> None:
        self._task = Task.from_row({k: row[k] for k in TASK_FIELDS}, self.worlds)
        self._episode: Episode = self.sandbox.pool.episode(
            self._task.domain, state_json(self._task)
        )
        self._draft = open_draft(self._task, "policy", 0)
        self._verdict: Verdict | None = None
        self._labels: dict[str, Any] | None = None  # set by trainer.rewards.rollout_labels
        return None  # the prompt column already holds the system prompt and the instruction

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        outcome = self.sandbox.run(self._episode.call(name, arguments))
        record_call(self._draft, self._task, name, arguments, outcome)
        return outcome.output

    @property
    def task(self) -> Task:
        return self._task

    @property
    def draft(self) -> Transcript:
        return self._draft

    def _judge(self, final_answer: str) -> Verdict:
        """Close the episode with the model's final answer and verify it (once per rollout)."""
        if self._verdict is None:
            final_hash = self.sandbox.run(self._episode.finish())
            close_draft(self._draft, final_answer, final_hash)
            # The verdict does not depend on the reward's weights: the default rubric judges it.
            judged = Rubric(RewardConfig()).verdict(self._task, self._draft, self.sandbox.pool)
            self._verdict = self.sandbox.run(judged)
        return self._verdict


def ask_user(self, message: str) -> str:  # type: ignore[no-untyped-def]  (TRL reads the hints)
    """Say something to the customer (ask for a detail you need, or ask them to confirm an
    action) and get their reply.

    Args:
        message: What you say to the customer.
    """
    scenario = self._task.user_scenario
    answer = scripted_user.reply(scenario, message) if scenario else None
    self._draft.messages.append(Message(role="assistant", content=message))
    if answer is None:
        return "The customer has nothing to add."
    self._draft.messages.append(Message(role="user", content=answer, name="scripted_user"))
    return answer


def _tool_method(name: str, tool: Callable[..., Any]) -> Callable[..., str]:
    @functools.wraps(tool)
    def method(self: ToolscaleEnvironment, **arguments: Any) -> str:
        return self._call(name, arguments)

    return method


def offered_tools(domain: str, tools_json: str) -> tuple[str, ...]:
    """The names of the tools a task offers (its `tools` column), in the toolkit's order."""
    offered = {t.get("function", t)["name"] for t in json.loads(tools_json)}
    return tuple(name for name in get_domain(domain).toolkit.specs() if name in offered)


def environment_key(domain: str, tools_json: str) -> str:
    """A row's `environment` column: its domain, or `domain:tool+tool` when the task offers a
    subset of the domain's tools (tool dropout), so its prompt lists and its rollout can call
    only those."""
    offered = offered_tools(domain, tools_json)
    if offered == tuple(get_domain(domain).toolkit.specs()):
        return domain
    return f"{domain}:{'+'.join(offered)}"


def split_key(key: str) -> tuple[str, str]:
    """(domain, "tool+tool" or "") of an environment key; a tau2 domain's own name holds a colon
    (tau2:retail), so its subset follows a further one."""
    rest = key.removeprefix("tau2:")
    domain, sep, subset = rest.rpartition(":")
    if not sep:
        domain, subset = rest, ""
    return key[: len(key) - len(rest)] + domain, subset


def environment_class(
    key: str, sandbox: SandboxThread, worlds: Mapping[str, dict[str, Any]] | None = None
) -> type[ToolscaleEnvironment]:
    """A ToolscaleEnvironment subclass whose public methods are the tools `key` names (see
    `environment_key`); `worlds` holds the worlds its stateful tasks derive from."""
    domain, subset = split_key(key)
    toolkit = get_domain(domain).toolkit
    names = subset.split("+") if subset else list(toolkit.specs())
    members: dict[str, Any] = {"sandbox": sandbox, "worlds": worlds or {}}
    for name in names:
        members[name] = _tool_method(name, getattr(toolkit, name))
    if get_domain(domain).family == "stateful":  # its tasks may be conversations
        members[ASK_USER] = ask_user
    return type(f"{domain.title()}Environment", (ToolscaleEnvironment,), members)


def environment_factories(
    keys: list[str], sandbox: SandboxThread, worlds: Mapping[str, dict[str, Any]] | None = None
) -> dict[str, type[ToolscaleEnvironment]]:
    """`{key: class}` for TRL's multi-environment mode (the rows' `environment` column)."""
    return {key: environment_class(key, sandbox, worlds) for key in keys}


def tool_methods(environment: ToolscaleEnvironment) -> list[Callable[..., str]]:
    """The environment's tools as TRL offers them: its public methods in name order."""
    return [
        getattr(environment, name)
        for name, _ in inspect.getmembers(type(environment), predicate=inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    ]


@functools.cache
def tool_schemas(key: str) -> tuple[dict[str, Any], ...]:
    """The JSON schemas of an environment's tools exactly as TRL renders them into a GRPO prompt
    (its order, its key order), so SFT conversations and GRPO prompts show the same text."""
    from transformers.utils import get_json_schema

    cls = environment_class(key, sandbox=None)  # type: ignore[arg-type]  (never called)
    return tuple(get_json_schema(method) for method in tool_methods(cls()))
