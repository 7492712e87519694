"""`toolscale-train sft`: an optional warm start on the verified `traces`, with TRL's SFTTrainer."""

from __future__ import annotations

from collections.abc import Sequence

from toolscale.errors import ConfigError
from trainer.args import ToolscaleArguments
from trainer.callbacks import MetricsRecorder
from trainer.data import sft_rows
from trainer.model import load


def parse(argv: Sequence[str]) -> tuple[ToolscaleArguments, object]:
    from trl import SFTConfig, TrlParser

    parser = TrlParser((ToolscaleArguments, SFTConfig))
    try:
        return tuple(parser.parse_args_and_config(list(argv)))  # type: ignore[return-value]
    except (OSError, ValueError) as exc:
        raise ConfigError(str(exc).splitlines()[0]) from None


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
