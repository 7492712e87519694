"""`toolscale-train grpo`: GRPO with TRL on a toolscale `tasks` config, tools run in the sandbox."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from toolscale.sandbox.bridge import SandboxThread
from trainer.args import ToolscaleArguments
from trainer.args import parse as parse_options
from trainer.callbacks import MetricsRecorder
from trainer.data import grpo_rows
from trainer.environment import environment_factories
from trainer.model import load
from trainer.reward_config import resolve_reward, save_reward
from trainer.rewards import reward_functions


def parse(argv: Sequence[str]) -> tuple[ToolscaleArguments, Any]:
    from trl import GRPOConfig

    return parse_options(GRPOConfig, argv)


def grpo(argv: Sequence[str]) -> str:
    """Train; returns the output folder holding the model, metrics.jsonl and metrics.png."""
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    options, config = parse(argv)
    rows = grpo_rows(options)
    reward = resolve_reward(options)
    if reward.warning:
        print(reward.warning, file=sys.stderr, flush=True)
    model, tokenizer = load(options.model)
    functions, weights = reward_functions(reward.config, options.reward_variant)
    config.reward_weights = weights
    if config.process_index == 0:
        print(reward.summary(), file=sys.stderr, flush=True)
        save_reward(reward, config.output_dir)
    from trl import GRPOTrainer

    sandbox = SandboxThread(options.sandbox_workers)
    try:
        trainer = GRPOTrainer(
            model=model,
            processing_class=tokenizer,
            args=config,
            train_dataset=rows,
            reward_funcs=functions,
            environment_factory=environment_factories(sorted(set(rows["domain"])), sandbox),
            callbacks=[MetricsRecorder(config.output_dir)],
        )
        trainer.train()
        trainer.save_model(config.output_dir)
        tokenizer.save_pretrained(config.output_dir)
    finally:
        sandbox.close()
    return config.output_dir
