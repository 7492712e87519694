"""`toolscale-train sft`: an optional warm start on the verified `traces`, with TRL's SFTTrainer.

With `assistant_only_loss: true` (the shipped config) only the assistant's tokens (its tool calls
and answers, each turn's end token included) carry labels; the system prompt, tool schemas, user
turns and tool results are context. TRL swaps in a training version of known templates (with
`{% generation %}` markers); a template it cannot patch is a ConfigError naming the fix.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from toolscale.core.errors import ConfigError
from trainer.args import ToolscaleArguments, resume_target
from trainer.args import parse as parse_options
from trainer.callbacks import MetricsRecorder
from trainer.data import conversations, sft_rows
from trainer.model import load, train_top_layers
from trainer.tool_text import save_tool_text


def parse(argv: Sequence[str]) -> tuple[ToolscaleArguments, Any]:
    from trl import SFTConfig

    return parse_options(SFTConfig, argv)


def sft_trainer(config: Any, model: Any, tokenizer: Any, rows: Any, record: bool = True) -> Any:
    """TRL's SFTTrainer on `rows` (conversations with their tools), metrics recorded if `record`."""
    from trl import SFTTrainer

    try:
        return SFTTrainer(
            model=model,
            processing_class=tokenizer,
            args=config,
            train_dataset=rows,
            callbacks=[MetricsRecorder(config.output_dir)] if record else None,
        )
    except ValueError as exc:
        if config.assistant_only_loss and "generation" in str(exc):
            raise ConfigError(
                "assistant_only_loss needs a chat template with {% generation %} markers, which "
                "TRL cannot add to this model's template; set `chat_template: qwen3` (or "
                "qwen3_instruct_2507) or `assistant_only_loss: false`"
            ) from None
        raise


def sft(argv: Sequence[str]) -> str:
    """Fine-tune on verified traces; returns the output folder."""
    options, config = parse(argv)
    resume = resume_target(config, options.overwrite_output_dir)
    rows = sft_rows(options, say=lambda line: print(line, file=sys.stderr))
    model, tokenizer = load(
        options.model, options.chat_template, conversations(rows), options.tiny_size()
    )
    train_top_layers(model, options.trainable_layers)
    trainer = sft_trainer(config, model, tokenizer, rows)
    trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(config.output_dir)
    tokenizer.save_pretrained(config.output_dir)
    if config.process_index == 0:
        shown = set(rows["tools"])  # one JSON list per row, few distinct
        save_tool_text(config.output_dir, (s for text in shown for s in json.loads(text)))
    return config.output_dir
