"""`toolscale-train grpo|sft|evaluate [--config FILE] [--key value ...]`: a thin shell over the
trainer (`trainer.grpo.grpo`, `trainer.sft.sft`, `trainer.evaluate.evaluate`)."""

from __future__ import annotations

import sys

from toolscale.core.errors import ConfigError

USAGE = (
    "usage: toolscale-train {grpo,sft} --config trainer/configs/<name>.yaml [--key value ...]\n"
    "       toolscale-train evaluate --dataset OUT [--model FOLDER | --base_url URL --model NAME] "
    "[--key value ...]"
)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("grpo", "sft", "evaluate"):
        print(USAGE, file=sys.stderr)
        sys.exit(2)
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


if __name__ == "__main__":
    main()
