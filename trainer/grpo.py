"""`toolscale-train grpo`: GRPO with TRL on a toolscale `tasks` config, tools run in the sandbox."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, cast

from toolscale.core.errors import ConfigError
from toolscale.sandbox.bridge import SandboxThread
from toolscale.sandbox.guard import check_isolation, isolation_warning
from trainer.args import ToolscaleArguments, resume_target
from trainer.args import parse as parse_options
from trainer.cached_generation import CachedGenerationMixin, check_cached_generation
from trainer.callbacks import MetricsRecorder
from trainer.data import conversations, dataset_worlds, grpo_rows, sft_rows
from trainer.environment import environment_factories
from trainer.model import load, train_top_layers
from trainer.reward_config import resolve_reward, save_reward
from trainer.reward_functions import reward_functions
from trainer.rollout_dump import RolloutDump
from trainer.route_mix import RouteMix
from trainer.tool_text import changed_tools, save_tool_text, shown_schemas
from trainer.user_seat import close_user
from trainer.warm_start import warm_start


def parse(argv: Sequence[str]) -> tuple[ToolscaleArguments, Any]:
    from trl import GRPOConfig

    return parse_options(GRPOConfig, argv)


def check_batch(options: ToolscaleArguments, config: Any) -> None:
    """Group-normalised rewards need whole groups on every rank: each rank generates
    per_device_train_batch_size * steps_per_generation rollouts, consecutive groups of
    num_generations, so that product must be a multiple of num_generations."""
    local = config.per_device_train_batch_size * config.steps_per_generation
    if options.reward_variant == "toolorchestra" and local % config.num_generations:
        raise ConfigError(
            f"reward_variant toolorchestra needs whole groups on every rank: "
            f"per_device_train_batch_size * steps_per_generation = {local} is not a multiple of "
            f"num_generations = {config.num_generations}"
        )


def grpo(argv: Sequence[str]) -> str:
    """Train; returns the output folder holding the model, metrics.jsonl and metrics.png."""
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    options, config = parse(argv)
    check_batch(options, config)
    if options.shared_head_generation:
        check_cached_generation(config)
    resume = resume_target(config, options.overwrite_output_dir)
    rows = grpo_rows(options)
    # The policy writes the programs code_executor runs: only where the sandbox holds.
    check_isolation(options.isolation, rows["domain"], model_writes_code=True)
    weaker = isolation_warning(rows["domain"], model_writes_code=True)
    if weaker and config.process_index == 0:
        print(f"warning: {weaker}", file=sys.stderr, flush=True)
    user = options.user_simulator()  # None: the scripted user; its key is read before training
    reward = resolve_reward(options)
    if reward.warning:
        print(reward.warning, file=sys.stderr, flush=True)
    shown = shown_schemas(rows["environment"])
    changed = changed_tools(options.model, shown)
    if changed and config.process_index == 0:
        print(f"warning: {changed}", file=sys.stderr, flush=True)
    traces = sft_rows(options, set(rows["id"])) if options.warm_start_steps > 0 else []
    model, tokenizer = load(
        options.model,
        options.chat_template,
        conversations(rows, traces),
        options.tiny_size(),
    )
    if options.warm_start_steps > 0:
        warm_start(options, config, model, tokenizer, traces)
    train_top_layers(model, options.trainable_layers)
    dump = RolloutDump(config.output_dir, options.dump_rollouts, config.process_index == 0)
    mix = RouteMix(config.process_index == 0)
    functions, weights = reward_functions(reward.config, options.reward_variant, (dump, mix))
    config.reward_weights = weights
    if config.process_index == 0:
        print(reward.summary(), file=sys.stderr, flush=True)
        save_reward(reward, config.output_dir)
    from trainer.group_filter import FilteredGRPOTrainer

    trainer_class = FilteredGRPOTrainer
    if options.shared_head_generation:
        # type() builds a subclass of FilteredGRPOTrainer (its last base).
        trainer_class = cast(
            type[FilteredGRPOTrainer],
            type("CachedGRPOTrainer", (CachedGenerationMixin, FilteredGRPOTrainer), {}),
        )
    sandbox = SandboxThread(options.sandbox_workers)
    try:
        trainer = trainer_class(
            model=model,
            processing_class=tokenizer,
            args=config,
            train_dataset=rows,
            reward_funcs=functions,
            environment_factory=environment_factories(
                sorted(set(rows["environment"])),
                sandbox,
                dataset_worlds(options.dataset, rows),
                user,
            ),
            callbacks=[MetricsRecorder(config.output_dir, mix.take), dump],
            group_threshold=options.group_std_threshold,
            whole_groups=options.reward_variant == "toolorchestra",
        )
        trainer.train(resume_from_checkpoint=resume)
        trainer.save_model(config.output_dir)
        tokenizer.save_pretrained(config.output_dir)
        if config.process_index == 0:
            save_tool_text(config.output_dir, shown)
    finally:
        sandbox.run(close_user(user))
        sandbox.close()
    return config.output_dir
