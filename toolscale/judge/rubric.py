"""The rubric: verify, measure, label and reward one attempt at a task, the same way everywhere.

Generation (`toolscale.pipeline.task`), `validate`, `check-rewards` (through generation's task
runner) and the trainer's reward functions all judge an attempt with a `Rubric`, so a verdict, a
metric or a reward can never mean one thing in the data and another in training. The parts stay
in their modules: `verify` (format, execution, grounding, outcome), `metrics` (calls, tokens,
cost, latency), `labels` (reward components and total), `rewards` (the formulas).
This module adds no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from toolscale.core.records import Message, Task, Trace, trace_id
from toolscale.judge.labels import Labelled, group_labels, trace_labels
from toolscale.judge.metrics import trace_metrics
from toolscale.judge.readings import Readings
from toolscale.judge.rewards import RewardConfig
from toolscale.judge.user_fault import user_verdict
from toolscale.judge.verify import Attempt, Validators, Verdict, verify
from toolscale.sandbox.pool import SandboxPool


class Assertions(Protocol):
    """A second judge of a verified attempt (tau2's NL assertions,
    `toolscale.tau2.nl_assertions`)."""

    async def verdict(self, task: Task, messages: list[Message]) -> Verdict: ...


class JudgedAttempt(Attempt, Labelled, Protocol):
    """What a teacher or a policy leaves of one attempt (`toolscale.play.transcript.Transcript`)."""

    variant: str
    attempt: int
    failure: tuple[str, str] | None
    teacher_latency_ms: float


@dataclass(frozen=True)
class Rubric:
    """How one run judges its attempts: the reward config, the teacher's price ($ per 1M prompt
    and completion tokens; it prices `teacher_cost`, not the reward) and, for tau2 tasks whose
    reward basis needs it, the NL-assertion judge. An attempt whose calls the pipeline itself
    ran on a fresh state (`grounded`: a reference or oracle route) is not replayed again for
    its grounding, its outcomes being that replay; `double_check` replays it all the same (a
    check that the sandbox gives the same outcomes twice). `readings` keeps what each text an
    attempt was shown holds for the figures check, read once for all the run's attempts, and
    `validators` each task's tool validators, built once for all its attempts."""

    reward: RewardConfig
    teacher_price: tuple[float, float] = (0.0, 0.0)
    assertions: Assertions | None = None
    double_check: bool = False
    readings: Readings = field(default_factory=Readings, compare=False, repr=False)
    validators: Validators = field(default_factory=Validators, compare=False, repr=False)

    async def verdict(self, task: Task, attempt: Attempt, pool: SandboxPool) -> Verdict:
        """A failure the attempt already carries (a teacher's, on a draft; a stored trace is
        judged again from its transcript), else `verify`'s verdict (replayed unless the attempt
        is `grounded`, see the class), at stage `user` when the simulated user broke it
        (`toolscale.judge.user_fault`), then, for a verified attempt, the assertion judge's when
        there is one."""
        failure = getattr(attempt, "failure", None)
        if failure is not None:
            return Verdict(False, failure[0], [failure[1]])
        replay = self.double_check or not getattr(attempt, "grounded", False)
        verdict = await verify(task, attempt, pool, replay, self.readings, self.validators)
        verdict = user_verdict(task, attempt.messages, verdict)  # the simulator's fault, apart
        if verdict.verified and self.assertions is not None:
            verdict = await self.assertions.verdict(task, attempt.messages)
        return verdict

    def measure(
        self,
        task: Task,
        attempt: Labelled,
        verified: bool,
        metrics: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The metric columns and the label columns of an attempt with that verdict (`metrics`:
        its metric columns under `task`, when the caller has them)."""
        metrics = trace_metrics(task, attempt) if metrics is None else metrics
        labels = trace_labels(task, attempt, metrics, verified, self.reward, self.teacher_price)
        return metrics, labels

    def score(self, task: Task, attempt: Labelled, verified: bool) -> dict[str, Any]:
        """The metric and label columns of an attempt with that verdict, in one mapping."""
        metrics, labels = self.measure(task, attempt, verified)
        return {**metrics, **labels}

    async def trace(
        self, task: Task, attempt: JudgedAttempt, teacher: str, pool: SandboxPool
    ) -> Trace:
        """The attempt as a dataset row: its transcript, verdict, metrics and labels."""
        verdict = await self.verdict(task, attempt, pool)
        return Trace(
            id=trace_id(task.id, teacher, attempt.variant, attempt.attempt, attempt.messages),
            task_id=task.id,
            domain=task.domain,
            teacher=teacher,
            variant=attempt.variant,
            attempt=attempt.attempt,
            messages=attempt.messages,
            tool_calls=attempt.tool_calls,
            final_answer=attempt.final_answer,
            final_state_hash=attempt.final_state_hash,
            verified=verdict.verified,
            failure_stage=verdict.failure_stage,  # type: ignore[arg-type]
            failure_reasons=verdict.reasons,
            teacher_prompt_tokens=attempt.teacher_prompt_tokens,
            teacher_completion_tokens=attempt.teacher_completion_tokens,
            teacher_latency_ms=attempt.teacher_latency_ms,
            **self.score(task, attempt, verdict.verified),
        )

    def group(self, task: Task, traces: list[Trace]) -> list[Trace]:
        """The traces of every attempt at `task` with their group reward set."""
        return group_labels(task, traces)
