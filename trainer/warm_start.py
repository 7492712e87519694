"""Warm start for smoke runs: a few SFT steps, in process, on the verified traces of the very
tasks GRPO then trains on, so a tiny random model's rollouts sometimes call the right tools and
sometimes not: a reward spread, and so a gradient, from the first GRPO step.

It is the `sft` command's trainer (assistant tokens only) with a throw-away output folder; a
real run warm-starts with `toolscale-train sft` and passes its output as `--model` instead.
"""

from __future__ import annotations

import sys
import tempfile
from typing import Any

from toolscale.core.errors import ConfigError


def warm_start(options: Any, config: Any, model: Any, tokenizer: Any, rows: Any) -> float:
    """Fit `model` on `rows` (`sft_rows` of the training tasks) for `options.warm_start_steps`
    steps; returns the last logged loss."""
    from trl import SFTConfig

    from trainer.sft import sft_trainer

    if len(rows) == 0:
        raise ConfigError("warm_start_steps needs verified traces of the training tasks; none")
    with tempfile.TemporaryDirectory(prefix="toolscale-warm-") as folder:
        sft_config = SFTConfig(
            output_dir=folder,
            max_steps=options.warm_start_steps,
            learning_rate=options.warm_start_lr,
            per_device_train_batch_size=min(8, len(rows)),
            lr_scheduler_type="constant",
            assistant_only_loss=True,
            max_length=None,
            logging_steps=options.warm_start_steps,
            save_strategy="no",
            report_to="none",
            use_cpu=config.use_cpu,
            bf16=config.bf16,
            activation_checkpointing=False,
            seed=config.seed,
            disable_tqdm=True,
        )
        trainer = sft_trainer(sft_config, model, tokenizer, rows, record=False)
        trainer.train()
    losses = [log["loss"] for log in trainer.state.log_history if "loss" in log]
    loss = float(losses[-1]) if losses else float("nan")
    print(
        f"warm start: {options.warm_start_steps} SFT steps on {len(rows)} "
        f"trace{'' if len(rows) == 1 else 's'}, loss {loss:.3f}",
        file=sys.stderr,
        flush=True,
    )
    return loss
