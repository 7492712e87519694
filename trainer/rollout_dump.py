"""Write a sample of each GRPO step's rollouts, every turn of them, to OUTPUT/rollouts.jsonl.

One JSON line per dumped rollout: the training step, the task (id, template, profile, its oracle
route's name and class), the rollout's route class (`trainer.route_mix`), the whole
completion as the policy produced and read it (its messages: assistant turns with their parsed
tool calls, tool results, the final answer), the calls the judge recorded (executed, or refused by
the tool loop), the failure stage and reasons, why it was left out of the update if it was, and
the labels its rewards came from (verified, cost, latency, tokens, reward components). It sits
beside metrics.jsonl, so a surprising point on a metrics curve can be read rollout by rollout.

Which rollouts: the first `per_step` of the batch each reward computation sees, on the main
process only (a rank's batch is consecutive whole groups when groups are whole per rank, so
these are the rollouts of the first tasks, all their generations). A new run in the same folder
starts a new file; a resumed one keeps the lines up to its checkpoint's step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from trainer.route_mix import oracle_class, rollout_route

FILE_NAME = "rollouts.jsonl"
DUMPED_LABELS = (
    "verified",
    "num_tool_calls",
    "calls_per_tool",
    "total_cost",
    "total_latency_ms",
    "num_tokens",
    "preference_compliant",
    "preference_violations",
    "reward_outcome",
    "reward_efficiency",
    "reward_preference",
    "reward_total",
)


def _plain(value: Any) -> Any:
    """A JSON-safe copy (tool-call arguments may arrive as dicts of anything)."""
    return json.loads(json.dumps(value, default=str))


class RolloutDump(TrainerCallback):
    """Appends sampled rollouts to OUTPUT/rollouts.jsonl; called by the reward functions with
    each batch, and a trainer callback so that a run starts (or resumes) its file."""

    def __init__(self, output_dir: str | Path, per_step: int, main_process: bool = True) -> None:
        self.path = Path(output_dir) / FILE_NAME
        self.per_step = per_step
        self.main_process = main_process
        self._started = False

    def start(self, resume_step: int = 0) -> None:
        """Keep only lines of steps up to `resume_step` (0: a fresh file)."""
        self._started = True
        if not self.main_process or not self.path.exists():
            return
        kept = [
            line
            for line in self.path.read_text().splitlines()
            if line.strip() and json.loads(line)["step"] <= resume_step
        ]
        self.path.write_text("".join(line + "\n" for line in kept))

    def on_train_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
        self.start(state.global_step)

    def __call__(
        self,
        step: int,
        completions: list[list[dict[str, Any]]],
        environments: list[Any],
        labels: list[dict[str, Any]],
    ) -> None:
        if self.per_step <= 0 or not self.main_process:
            return
        if not self._started:
            self.start()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as handle:
            for completion, environment, label in list(
                zip(completions, environments, labels, strict=True)
            )[: self.per_step]:
                task = environment.task
                record = {
                    "step": step,
                    "task_id": task.id,
                    "template": task.template,
                    "preference_profile": task.preference.profile,
                    "oracle_route": task.oracle_route,
                    "oracle_class": oracle_class(task),
                    "route_class": rollout_route(label),
                    "messages": _plain(completion),
                    "executed_calls": [
                        {
                            "name": c.name,
                            "arguments": c.arguments,
                            "status": c.status,
                            "output": c.output,
                        }
                        for c in environment.trace.tool_calls
                    ],
                    "failure_stage": label.get("failure_stage"),
                    "failure_reasons": label.get("failure_reasons"),
                    "excluded": label.get("excluded", ""),
                    **{k: _plain(label.get(k)) for k in DUMPED_LABELS},
                }
                handle.write(json.dumps(record) + "\n")
