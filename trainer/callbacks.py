"""Save the training metrics of every logging step of a run (JSON lines) and plot them as a PNG."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

PLOTTED = (
    "loss",
    "mean_token_accuracy",
    "reward",
    "rewards/reward_outcome/mean",
    "rewards/reward_efficiency/mean",
    "rewards/reward_preference/mean",
    "toolscale/success_rate",
    "toolscale/tool_calls",
    "toolscale/cost",
)


class MetricsRecorder(TrainerCallback):
    """Appends each log to OUTPUT/metrics.jsonl; at the end draws OUTPUT/metrics.png.

    The file holds one run: at the start of training, rows from an earlier run in the same folder
    are removed, except, when resuming from a checkpoint, those up to the checkpoint's step.
    `extra`, if given, adds its metrics to each row (GRPO: the route shares, trainer.route_mix)."""

    def __init__(
        self, output_dir: str, extra: Callable[[], dict[str, float]] | None = None
    ) -> None:
        self.folder = Path(output_dir)
        self.extra = extra

    @property
    def path(self) -> Path:
        return self.folder / "metrics.jsonl"

    def on_train_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
        if not state.is_world_process_zero or not self.path.exists():
            return
        rows = [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]
        kept = [
            r
            for r in rows  # the earlier run's end-of-training summary row goes too
            if 0 < r.get("step", 0) <= state.global_step and "train_runtime" not in r
        ]
        self.path.write_text("".join(json.dumps(r) + "\n" for r in kept))

    def on_log(
        self, args: Any, state: Any, control: Any, logs: dict | None = None, **kw: Any
    ) -> None:
        if not logs or not state.is_world_process_zero:
            return
        extra = self.extra() if self.extra is not None else {}
        self.folder.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as handle:
            handle.write(json.dumps({"step": state.global_step, **logs, **extra}) + "\n")

    def on_train_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
        if state.is_world_process_zero and self.path.exists():
            plot(self.path, self.folder / "metrics.png")


def plot(metrics: Path, target: Path) -> None:
    """One panel per plotted metric against the training step."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(line) for line in metrics.read_text().splitlines()]
    shown = [k for k in PLOTTED if any(k in r for r in rows)]
    if not shown:
        return
    fig, axes = plt.subplots(len(shown), 1, figsize=(6, 2.2 * len(shown)), squeeze=False)
    for axis, key in zip(axes[:, 0], shown, strict=True):
        points = [(r["step"], r[key]) for r in rows if key in r]
        axis.plot([p[0] for p in points], [p[1] for p in points], marker="o")
        axis.set_title(key, fontsize=9)
        axis.set_xlabel("step")
    fig.tight_layout()
    fig.savefig(target, dpi=80)
    plt.close(fig)
