"""The CPU defaults `toolscale-train grpo|sft` adds to its arguments before TRL parses them where
no GPU is present (`trainer.args.parse` applies them).

Without a GPU, TRL's config defaults (bf16, a CUDA device) fail at parse time on a CPU machine;
`with_cpu_defaults` adds `--use_cpu true --bf16 false` unless the command line or the `--config`
file sets them, so `toolscale-train sft --dataset OUT --output_dir DIR` runs as written there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

CPU_DEFAULTS = {"use_cpu": "true", "bf16": "false"}


def _given(argv: Sequence[str]) -> set[str]:
    """The option names `argv` sets, on the command line or in its `--config` YAML file (an
    unreadable file adds none: the parser says what is wrong with it)."""
    import yaml

    names = {a[2:].split("=")[0] for a in argv if a.startswith("--")}
    for i, arg in enumerate(argv):
        path = arg.split("=", 1)[1] if arg.startswith("--config=") else None
        if arg == "--config" and i + 1 < len(argv):
            path = argv[i + 1]
        if path is None:
            continue
        try:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(loaded, dict):
            names |= {str(k) for k in loaded}
    return names


def gpu_present() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def with_cpu_defaults(argv: Sequence[str], gpu: bool | None = None) -> tuple[list[str], list[str]]:
    """`argv` with the CPU defaults it does not set added where no GPU is present (`gpu`: None
    asks torch), and the `key value` pairs added."""
    if gpu is None:
        gpu = gpu_present()
    if gpu:
        return list(argv), []
    given = _given(argv)
    added = [f"{k} {v}" for k, v in CPU_DEFAULTS.items() if k not in given]
    extra = [part for pair in added for part in (f"--{pair.split()[0]}", pair.split()[1])]
    return [*argv, *extra], added
