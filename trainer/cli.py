"""`toolscale-train grpo|sft|evaluate [--config FILE] [--key value ...]`: a thin shell over the
trainer (`trainer.grpo.grpo`, `trainer.sft.sft`, `trainer.evaluate.evaluate`). `grpo|sft --help`
shows toolscale's options (TRL's with `--help-all`)."""

from __future__ import annotations

import dataclasses
import sys
import textwrap
import warnings
from typing import Any

from toolscale.core.errors import ConfigError

TRL_CONFIG = {"grpo": "GRPOConfig", "sft": "SFTConfig"}
USAGE = (
    "usage: toolscale-train {grpo,sft} [--config trainer/configs/<name>.yaml] --dataset OUT "
    "[--key value ...]   (--help: the options)\n"
    "       toolscale-train evaluate --dataset OUT [--model FOLDER | --base_url URL --model NAME] "
    "[--key value ...]"
)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        sys.exit(0)
    if not argv or argv[0] not in ("grpo", "sft", "evaluate"):
        given = f"unknown command {argv[0]!r}" if argv else "no command"
        sys.stderr.write(f"error: {given}; use grpo, sft or evaluate (toolscale-train --help)\n")
        sys.exit(2)
    if argv[0] in ("grpo", "sft"):
        argv = _prepared(argv)
    # TRL's configs set the flag transformers 5 renamed; the warning would be every run's first
    # line, about nothing the user wrote (trainer.args maps the flag itself).
    warnings.filterwarnings("ignore", message="`gradient_checkpointing` is deprecated")
    try:
        if argv[0] == "evaluate":
            from trainer.evaluate import evaluate

            table = evaluate(argv[1:])
            print(table.to_markdown())
            done = f"wrote evaluation.json and evaluation.md to {table.about['output_dir']}"
        elif argv[0] == "grpo":
            from trainer.grpo import grpo

            done = f"saved the trained model and its metrics to {grpo(argv[1:])}"
        else:
            from trainer.sft import sft

            done = f"saved the trained model and its metrics to {sft(argv[1:])}"
    except ConfigError as exc:
        # One write: print() writes the text and the newline apart, so two ranks refusing at once
        # could interleave their lines into one.
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
    print(done, file=sys.stderr)


def _field_help(field: dataclasses.Field[Any]) -> str:
    default = field.default if field.default is not dataclasses.MISSING else None
    shown = "required" if field.default is dataclasses.MISSING else f"default {default!r}"
    text = f"{field.metadata.get('help', '')} ({shown})"
    return textwrap.fill(text, 96, initial_indent="      ", subsequent_indent="      ")


def short_help(command: str) -> str:
    """`toolscale-train COMMAND --help`: usage and toolscale's own options; TRL's are behind
    `--help-all`."""
    from trainer.args import ToolscaleArguments

    lines = [
        f"usage: toolscale-train {command} [--config FILE.yaml] --dataset OUT --output_dir DIR "
        "[--key value ...]",
        "",
        "Without a GPU, --use_cpu true --bf16 false are the defaults. Configs: trainer/configs/.",
        "",
        "toolscale's options:",
    ]
    for field in dataclasses.fields(ToolscaleArguments):
        lines += [f"  --{field.name}", _field_help(field)]
    lines += [
        "",
        f"Every option of TRL's {TRL_CONFIG[command]} (learning_rate, max_steps, output_dir, "
        "max_length, ...) is accepted too, in the YAML file or as --key value: "
        f"toolscale-train {command} --help-all lists them.",
    ]
    return "\n".join(lines)


def _prepared(argv: list[str]) -> list[str]:
    """grpo / sft arguments: a short --help (exits), --help-all as TRL's --help."""
    command, rest = argv[0], argv[1:]
    if "-h" in rest or "--help" in rest:
        print(short_help(command))
        sys.exit(0)
    if "--help-all" in rest:
        return [command, "--help"]
    return argv


if __name__ == "__main__":
    main()
