"""`toolscale-train grpo|sft --config FILE [--key value ...]`: a thin shell over the trainer."""

from __future__ import annotations

import sys

from toolscale.core.errors import ConfigError

USAGE = "usage: toolscale-train {grpo,sft} --config trainer/configs/<name>.yaml [--key value ...]"


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("grpo", "sft"):
        print(USAGE, file=sys.stderr)
        sys.exit(2)
    try:
        if argv[0] == "grpo":
            from trainer.grpo import grpo

            folder = grpo(argv[1:])
        else:
            from trainer.sft import sft

            folder = sft(argv[1:])
    except ConfigError as exc:
        # One write: print() writes the text and the newline apart, so two ranks refusing at once
        # could interleave their lines into one.
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
    print(f"saved the trained model and its metrics to {folder}", file=sys.stderr)


if __name__ == "__main__":
    main()
