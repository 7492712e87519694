"""The GRPO flags the CPU training benchmarks (train_orchestrator.py, train_routing.py) share:
imported by them from this folder (a script's own folder is on its path)."""

from __future__ import annotations

from typing import Any


def grpo_flags(args: Any, batch: int) -> list[str]:
    """`toolscale-train grpo` flags from a benchmark's options: the task and step budget,
    `batch` rollouts per step in groups of `args.generations`, the completion length and tool
    turns, the trainable layers, rollout dumps and the learning rate."""
    return [
        "--warm_start_steps", "0",
        "--max_tasks", str(args.grpo_tasks),
        "--max_steps", str(args.grpo_steps),
        "--per_device_train_batch_size", str(batch),
        "--num_generations", str(args.generations),
        "--max_completion_length", str(args.max_completion_length),
        "--max_tool_calling_iterations", str(args.max_turns - 1),
        "--trainable_layers", str(args.trainable_layers),
        "--shared_head_generation", "true",
        "--dump_rollouts", str(args.generations),
        "--learning_rate", str(args.grpo_lr),
    ]  # fmt: skip
