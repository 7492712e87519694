"""TRL `environment_factory` classes: one per domain, each tool executed in the toolscale sandbox.

`reset(**row)` rebuilds the row's task (a `tasks` config row) and opens a fresh episode on a copy
of its initial state in the sandbox worker pool. The domain's tools become public methods with the
toolkit's own signatures and docstrings, so TRL derives the same schemas the dataset carries.
Every call that reaches the environment is executed in the sandbox and logged (`Executed`); when
the rollout is done, `_judge(completion, tokens, config)` turns the policy's messages and that log
into a Transcript (`toolscale.play.rollout`: every emitted call recorded, refused ones too) and
judges it with generation's `Rubric` into the very Trace row generation would write.
A stateful domain's environment also has `ask_user`: TRL's tool loop has no user turn, so the
policy talks to the task's user through it (and SFT conversations show user turns the same way,
`trainer.data`): the scripted user, or an LLM user simulator when one is given
(`trainer.user_seat`), which reads the conversation from the caller's side (its opening, then
what the policy said through `ask_user` and what it answered). A user request that fails after
its retries ends the conversation and excludes the rollout (the endpoint's fault, not the
policy's).

A call that times out is run once more (a worker starved by load is no fault of the policy); a
rollout with a crashed tool or a call that timed out twice is still judged (failure stage
"execution") but `excluded`: the reward functions leave it out of the update and report it; so
is a rollout the simulated user broke.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolscale.core.records import Message, Task, Trace
from toolscale.core.registry import get_domain
from toolscale.core.task_state import state_json
from toolscale.dialogue import scripted_user
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.rubric import Rubric
from toolscale.judge.user_fault import STAGE as USER_STAGE
from toolscale.llm.client import TeacherFailure
from toolscale.play.rollout import ASK_USER, Executed, transcript_of
from toolscale.play.usersim import UserSimulator
from toolscale.sandbox.bridge import SandboxThread
from toolscale.sandbox.pool import Episode

TASK_FIELDS = tuple(Task.model_fields)
ENDED = "The customer has ended the conversation."
# What a policy is told about the user turn it reaches through a tool (SFT, GRPO and evaluation
# prompts alike; generation's teachers talk to the user in plain messages instead).
ASK_USER_NOTE = (
    "You talk to the customer only through the ask_user tool: ask them for the details you "
    "need and for their confirmation before you change anything. When you are done, write your "
    "final answer to them as a plain message, without a tool call."
)


def has_user(domain: str) -> bool:
    """Whether the domain's environments have `ask_user` (its tasks may be conversations)."""
    return get_domain(domain).family == "stateful"


def policy_system_prompt(domain: str, system_prompt: str) -> str:
    """The system prompt a trained policy sees: the task's, plus `ASK_USER_NOTE` when its
    environment has `ask_user`."""
    return f"{system_prompt}\n\n{ASK_USER_NOTE}" if has_user(domain) else system_prompt


class ToolscaleEnvironment:
    """Base of the generated per-domain environments. TRL turns every public method into a
    tool, so everything here but `reset` is private or a property."""

    sandbox: SandboxThread  # set on the generated subclass
    worlds: Mapping[str, dict[str, Any]]  # the dataset's worlds, id -> state (same)
    user: UserSimulator | None  # the LLM user (same); None: the scripted user

    def reset(self, **row: Any) -> None:
        self._task = Task.from_row({k: row[k] for k in TASK_FIELDS}, self.worlds)
        self._episode: Episode = self.sandbox.pool.episode(
            self._task.domain, state_json(self._task)
        )
        self._executed: list[Executed] = []
        self._said: list[str] = []  # what the policy said to the user, through ask_user
        self._ended = False  # the user ended the conversation
        self._user_failed = ""  # why the LLM user's request failed
        self._trace: Trace | None = None
        self._labels: dict[str, Any] | None = None  # set by trainer.reward_functions.rollout_labels
        return None  # the prompt column already holds the system prompt and the instruction

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        outcome = self.sandbox.run(self._episode.call(name, arguments))
        if outcome.status == "timeout":  # the worker was replaced; the call did not count
            outcome = self.sandbox.run(self._episode.call(name, arguments))
        self._executed.append(Executed(name, dict(arguments), outcome=outcome))
        return outcome.output

    @property
    def task(self) -> Task:
        return self._task

    @property
    def executed(self) -> tuple[Executed, ...]:
        """What reached the environment so far, in order."""
        return tuple(self._executed)

    @property
    def trace(self) -> Trace | None:
        """The judged rollout (None until `judge` ran)."""
        return self._trace

    @property
    def excluded(self) -> str:
        """Why the rollout is left out of the update ("" when it is not): a tool crashed (a bug,
        not the policy's doing), a call timed out twice, the LLM user's endpoint failed, or, once
        judged, the user broke the conversation (stage "user", `toolscale.judge.user_fault`)."""
        broken = [
            (e.name, e.outcome)
            for e in self._executed
            if e.outcome is not None and e.outcome.status in ("crash", "timeout")
        ]
        failed = [f"ask_user: the user endpoint failed ({self._user_failed})"]
        trace = self._trace  # judged: a rollout the user broke is no sample of the policy
        user = trace.failure_reasons[:1] if trace and trace.failure_stage == USER_STAGE else []
        return "; ".join(
            [f"{name} {o.status}: {o.output}" for name, o in broken]
            + (failed if self._user_failed else [])
            + user
        )

    def _judge(
        self, completion: Sequence[dict[str, Any]], tokens: int, config: RewardConfig
    ) -> Trace:
        """The rollout as generation's Trace row, judged once: `completion` is the policy's
        messages after the prompt, `tokens` the completion's length in tokens (TRL's count)."""
        if self._trace is None:
            draft = transcript_of(self._task, completion, self._executed, tokens)
            draft.final_state_hash = self.sandbox.run(self._episode.finish())
            judged = Rubric(config).trace(self._task, draft, "policy", self.sandbox.pool)
            self._trace = self.sandbox.run(judged)
        return self._trace


def _talk(environment: ToolscaleEnvironment, message: str) -> list[Message]:
    """The conversation an LLM user reads: the task's opening, then each `ask_user` message and
    the reply it got, then `message`."""
    talk = [Message(role="user", content=environment.task.instruction)]
    for entry in environment.executed:
        if entry.name == ASK_USER:
            talk.append(Message(role="assistant", content=str(entry.arguments.get("message"))))
            if entry.reply is not None:
                talk.append(Message(role="user", content=entry.reply))
    return [*talk, Message(role="assistant", content=message)]


# `self` stays unannotated: TRL's schema derivation would list an annotated one as a parameter.
def ask_user(self, message: str) -> str:  # type: ignore[no-untyped-def]
    """Say something to the customer (ask for a detail you need, or ask them to confirm an
    action you propose) and get their reply. Give your final answer as a plain message, not
    through this tool.

    Args:
        message: What you say to the customer.
    """
    scenario = self._task.user_scenario
    self._said.append(message)
    circling = scripted_user.in_circles(self._said)
    answer = None
    if scenario is not None and not self._ended and not circling and self.user is None:
        answer = scripted_user.reply(scenario, self._said)  # the user remembers the talk
    elif scenario is not None and not self._ended and not circling:
        try:
            answer = self.sandbox.run(self.user.reply(scenario, _talk(self, message), 0))
        except TeacherFailure as failure:
            self._user_failed = failure.kind
    self._ended = self._ended or answer is None
    logged = Executed(ASK_USER, {"message": message}, reply=answer, circling=circling)
    self._executed.append(logged)
    return ENDED if answer is None else answer


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
    key: str,
    sandbox: SandboxThread | None,
    worlds: Mapping[str, dict[str, Any]] | None = None,
    user: UserSimulator | None = None,
) -> type[ToolscaleEnvironment]:
    """A ToolscaleEnvironment subclass whose public methods are the tools `key` names (see
    `environment_key`); `worlds` holds the worlds its stateful tasks derive from, `user` the
    LLM user of its conversations (None: the scripted user). Without a `sandbox` its tools can
    be listed but not run."""
    domain, subset = split_key(key)
    toolkit = get_domain(domain).toolkit
    names = subset.split("+") if subset else list(toolkit.specs())
    members: dict[str, Any] = {"sandbox": sandbox, "worlds": worlds or {}, "user": user}
    for name in names:
        members[name] = _tool_method(name, getattr(toolkit, name))
    if has_user(domain):
        members[ASK_USER] = ask_user
    return type(f"{domain.title()}Environment", (ToolscaleEnvironment,), members)


def environment_factories(
    keys: list[str],
    sandbox: SandboxThread,
    worlds: Mapping[str, dict[str, Any]] | None = None,
    user: UserSimulator | None = None,
) -> dict[str, type[ToolscaleEnvironment]]:
    """`{key: class}` for TRL's multi-environment mode (the rows' `environment` column)."""
    return {key: environment_class(key, sandbox, worlds, user) for key in keys}


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

    cls = environment_class(key, sandbox=None)  # its tools are read, never called
    return tuple(get_json_schema(method) for method in tool_methods(cls()))
