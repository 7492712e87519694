"""`toolscale-train sft`: an optional warm start on the verified `traces`, with TRL's SFTTrainer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainer.args import ToolscaleArguments
from trainer.args import parse as parse_options
from trainer.callbacks import MetricsRecorder
from trainer.data import sft_rows
from trainer.model import load


def parse(argv: Sequence[str]) -> tuple[ToolscaleArguments, Any]:
    from trl import SFTConfig

    return parse_options(SFTConfig, argv)


def sft(argv: Sequence[str]) -> str:
    """Fine-tune on verified traces; returns the output folder."""
    options, config = parse(argv)
    rows = sft_rows(options)
    model, tokenizer = load(options.model)
    from trl import SFTTrainer

    trainer = SFTTrainer(
        model=model,
        processing_class=tokenizer,
        args=config,
        train_dataset=rows,
        callbacks=[MetricsRecorder(config.output_dir)],
    )
    trainer.train()
    trainer.save_model(config.output_dir)
    tokenizer.save_pretrained(config.output_dir)
    return config.output_dir
