"""The serialised records: Task, Trace and their parts, exactly as they become dataset rows.

Free-form values (tool arguments, schemas, states, price tables) are JSON strings in rows so the
Arrow schema never depends on the tools; in memory they are Python values. `to_row` / `from_row`
convert between the two; `toolscale.write.features` derives each config's fixed Features from
these records, so a field added here is a column there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from toolscale.core import patch
from toolscale.core.contract import UserScenario, canonical_json, content_id
from toolscale.core.errors import ConfigError
from toolscale.core.preference import Preference

# "judge": the NL-assertion judge gave no usable verdict (toolscale.tau2.nl_assertions); the attempt
# passed every other stage and is neither verified nor counted as the model's mistake.
# "user": the simulated user broke the conversation (toolscale.judge.user_fault), not the agent.
FailureStage = Literal[
    "sample", "teacher", "format", "execution", "grounding", "outcome", "judge", "user"
]
CallStatus = Literal["ok", "error", "crash", "timeout"]

# Fields held as JSON strings in dataset rows (toolscale.write.features makes them strings).
TASK_JSON = (
    "tools",
    "prices",
    "gold_actions",
    "initial_state",
    "preference",
    "user_scenario",
    "provenance",
)
TRACE_JSON = ("calls_per_tool",)


class RouteScore(BaseModel):
    """One route the oracle played at a task (`toolscale.oracle.played`): its verdict, whether it
    kept the preference's hard constraints, its cost, latency and calls, and its `reward_total`
    with the task's gold route being the oracle route; then its chance of being right as a policy
    can know it (`p_right`: its expert's skill profile, or 1 / 0 for a route that answers the
    same every time) and its `expected_reward` (p_right x its reward if right + (1 - p_right) x
    its reward if wrong, with the task's expected route as the gold, a reference a policy can
    know; None in rows made before it existed)."""

    model_config = ConfigDict(frozen=True)

    name: str
    detour: bool
    verified: bool
    failure_stage: str | None
    compliant: bool
    num_tool_calls: int
    total_cost: float
    total_latency_ms: float
    reward_total: float
    p_right: float | None = None
    expected_reward: float | None = None


class Task(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    domain: str
    domain_version: str
    family: str
    seed: int
    index: int
    template: str
    difficulty: str
    system_prompt: str
    instruction: str
    tools: list[dict[str, Any]]
    # $ and modelled latency per tool, model alias and "orchestrator" (toolscale.economics.prices),
    # under
    # the schedule the task drew; the gold route's total cost and latency under that table.
    prices: dict[str, dict[str, float]]
    price_schedule: str
    reference_cost: float
    reference_latency_ms: float
    gold_actions: list[dict[str, Any]]
    initial_state: dict[str, Any]
    expected_answer: str | None
    expected_state_hash: str
    required_facts: list[str]
    # The user's preference profile; its instruction is already appended to `instruction`.
    preference: Preference
    # A conversational task's user (then `instruction` is the user's first message), or None.
    user_scenario: UserScenario | None = None
    # The id of the run's world (`toolscale.sample.worlds`) that `initial_state` derives from, or
    # "".
    world: str = ""
    # Where a task came from when no sampler can rebuild it (`toolscale synthesize`: source,
    # model, intent, filter results); {} for a task of a domain's sampler.
    provenance: dict[str, Any] = {}
    # The oracle (toolscale.oracle.played), for a task whose domain offers routes: the best route's
    # name (its actions are `gold_actions`), its reward_total, and every route played with its
    # score; "", None and [] for other tasks.
    oracle_route: str = ""
    oracle_reward: float | None = None
    route_table: list[RouteScore] = []
    # The expected-reward oracle: the route of the table with the best `expected_reward`, what a
    # policy can know to be best from what it sees (the SFT label); "" for other tasks.
    expected_route: str = ""

    def to_row(
        self,
        worlds: Mapping[str, dict[str, Any]] | None = None,
        own_patch: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The dataset row. A task on a world stores its state as a JSON Patch against it, so
        `worlds` (id -> state, e.g. a `toolscale.sample.worlds.WorldStore`) must hold that world;
        `own_patch` is that patch when the caller knows it (the task's own changes, kept from
        where its state was made: `toolscale.sample.tasks.own_patch`), else it is computed."""
        if self.world:  # the state is not dumped (copied) only to be replaced by its patch
            world = _world(worlds, self.world)
            row = self.model_dump(exclude={"initial_state"})
            known = own_patch is not None
            row["initial_state"] = own_patch if known else patch.diff(world, self.initial_state)
        else:
            row = self.model_dump()
        for key in TASK_JSON:
            row[key] = canonical_json(row[key])
        row["preference_profile"] = self.preference.profile  # a plain column to filter on
        return row

    @classmethod
    def from_row(
        cls, row: dict[str, Any], worlds: Mapping[str, dict[str, Any]] | None = None
    ) -> Task:
        """The task of a row; a task on a world needs that world in `worlds` (id -> state: the
        output's `worlds` config, `toolscale.sample.worlds.WorldStore.of_output`)."""
        data = dict(row)
        data.pop("preference_profile", None)
        for key in TASK_JSON:
            data[key] = json.loads(data[key])
        if data.get("world"):
            world = _world(worlds, data["world"])
            data["initial_state"] = patch.apply(world, data["initial_state"])
        return cls(**data)

    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.tools]


class World(BaseModel):
    """One run's shared database of a domain (`toolscale.sample.worlds`); `id` is its content id."""

    model_config = ConfigDict(frozen=True)

    id: str
    domain: str
    domain_version: str
    seed: int
    state: dict[str, Any]

    def to_row(self) -> dict[str, Any]:
        return {**self.model_dump(exclude={"state"}), "state": canonical_json(self.state)}


class FunctionCall(BaseModel):
    id: str
    name: str
    arguments: str  # JSON text, as the model wrote it


class Message(BaseModel):
    role: Literal["system", "user", "assistant", "tool"]
    content: str
    tool_calls: list[FunctionCall] = []
    tool_call_id: str | None = None
    name: str | None = None


class ToolCall(BaseModel):
    """One executed call: what was asked, what the sandbox returned, and what it cost."""

    id: str
    name: str
    arguments: str
    output: str
    status: CallStatus
    cost: float
    latency_ms: float
    model: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Trace(BaseModel):
    id: str
    task_id: str
    domain: str
    teacher: str
    variant: str
    attempt: int
    messages: list[Message]
    tool_calls: list[ToolCall]
    final_answer: str
    final_state_hash: str
    verified: bool
    failure_stage: FailureStage | None
    failure_reasons: list[str]
    num_tool_calls: int
    calls_per_tool: dict[str, int]
    num_turns: int
    cost: float
    latency_ms: float
    gold_calls: int
    extra_calls: int
    failed_calls: int
    tool_output_chars: int
    teacher_prompt_tokens: int
    teacher_completion_tokens: int
    teacher_latency_ms: float
    repeated_calls: int
    tool_output_tokens: int
    model_tool_tokens: int
    orchestrator_input_tokens: int
    orchestrator_output_tokens: int
    orchestrator_cost: float
    num_tokens: int
    total_latency_ms: float
    # Labels (toolscale.judge.labels): the teacher's own cost, preference, rewards.
    teacher_cost: float
    total_cost: float
    preference_profile: str
    preference_compliant: bool
    preference_violations: list[str]
    solved_quickly: bool
    stated_confidence: float | None
    reward_outcome: float
    reward_efficiency: float
    reward_preference: float
    reward_total: float
    reward_weights: str  # JSON {"w_e": ..., "w_o": ..., "w_p": ...} (and w_<name> of each extra)
    # JSON {name: value} of the extra reward components a run adds (toolscale.judge.components).
    reward_extra: str = "{}"
    # ToolOrchestra's reward within the attempts at the same task
    # (toolscale.judge.labels.group_labels).
    reward_group: float = 0.0

    def to_row(self) -> dict[str, Any]:
        row = self.model_dump()
        for key in TRACE_JSON:
            row[key] = canonical_json(row[key])
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Trace:
        data = dict(row)
        for key in TRACE_JSON:
            data[key] = json.loads(data[key])
        return cls(**data)


def trace_id(
    task_id: str, teacher: str, variant: str, attempt: int, messages: list[Message]
) -> str:
    """Deterministic: the same task, teacher, variant, attempt and conversation give the same id."""
    return content_id([task_id, teacher, variant, attempt, [m.model_dump() for m in messages]])


def _world(worlds: Mapping[str, dict[str, Any]] | None, key: str) -> dict[str, Any]:
    if worlds is None or key not in worlds:
        raise ConfigError(
            f"world {key} is not loaded; read the output's `worlds` config first "
            "(toolscale.sample.worlds.WorldStore.of_output(OUT)) or regenerate the output"
        )
    return worlds[key]


ErrorStage = Literal["sample", "schema", "gold", "tool"]


class DomainError(BaseModel):
    """A domain bug met during a run: where (domain, task index, stage), what, and the traceback
    of the exception in the sandbox worker. Kept in run.json (`toolscale.stats.run_stats`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    domain: str
    index: int
    stage: ErrorStage
    message: str
    traceback: str = ""

    def line(self) -> str:
        return f"{self.domain} task {self.index} ({self.stage}): {self.message}"
