"""toolscale's training options, added to TRL's GRPOConfig / SFTConfig and parsed by TrlParser."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolscale.config.teacher import ISOLATION_HELP
from toolscale.core.errors import ConfigError
from trainer.cli_options import with_cpu_defaults
from trainer.data import check_dataset, check_domain_filter
from trainer.model import check_model
from trainer.parser import parse as parse_flags
from trainer.selection import variant_filter
from trainer.split import check_fraction
from trainer.user_seat import UserArguments


@dataclass
class ToolscaleArguments(UserArguments):
    """What to train on, how to reward it, and who plays the caller of stateful tasks
    (`trainer.user_seat`; everything else is TRL's config)."""

    dataset: str = field(metadata={"help": "A toolscale output folder or a Hub dataset id."})
    dataset_config: str | None = field(
        default=None, metadata={"help": "Config to read: tasks (grpo default) or traces (sft)."}
    )
    domains: str = field(default="all", metadata={"help": 'Domain filter: "all" or "a,b".'})
    templates: str = field(
        default="all", metadata={"help": 'Task-template filter (an easy subset): "all" or "a,b".'}
    )
    difficulties: str = field(
        default="all", metadata={"help": 'Task-difficulty filter: "all" or e.g. "easy,medium".'}
    )
    variants: str = field(
        default="best",
        metadata={
            "help": "SFT traces per task: best (one: a routed task's expected_route trace, "
            "none when that route answered wrong; any other task's gold trace, else its best "
            "verified non-detour trace by reward_total), all (every verified variant, detours "
            'included), or variant names such as "gold,expert-1" (the traces\' variant column).'
        },
    )
    model: str = field(
        default="tiny-random",
        metadata={"help": "Model folder, Hub id, local-smollm2 or tiny-random."},
    )
    tiny_hidden: int = field(
        default=32, metadata={"help": "tiny-random only: the width of its layers."}
    )
    tiny_layers: int = field(
        default=2, metadata={"help": "tiny-random only: its number of decoder layers."}
    )
    chat_template: str | None = field(
        default=None,
        metadata={
            "help": "Unset: keep the checkpoint's own tool template when TRL can parse it; "
            "qwen3: always use TRL's Qwen3 template; qwen3_instruct_2507: TRL's Qwen3-Instruct "
            "template (no <think> blocks)."
        },
    )
    reward_variant: Literal["linear", "toolorchestra"] = field(
        default="linear",
        metadata={"help": "linear: w_o*r_o + w_e*r_e + w_p*r_p; toolorchestra: group-normalised."},
    )
    w_o: float | None = field(
        default=None, metadata={"help": "Weight of r_outcome (default: the dataset's run.json)."}
    )
    w_e: float | None = field(
        default=None, metadata={"help": "Weight of r_efficiency (default: the dataset's run.json)."}
    )
    w_p: float | None = field(
        default=None, metadata={"help": "Weight of r_preference (default: the dataset's run.json)."}
    )
    reward_options: str = field(
        default="",
        metadata={
            "help": 'Override other reward settings of the dataset: "per_token=0.0002,per_call=0".'
        },
    )
    group_std_threshold: float = field(
        default=0.1,
        metadata={
            "help": "Drop a GRPO group (no gradient) whose reward std is below this "
            "(ToolOrchestra: 0.1); 0 keeps every group."
        },
    )
    trainable_layers: int | None = field(
        default=None,
        metadata={
            "help": "Train only the top N decoder layers and the final norm, the rest frozen "
            "(backward passes stop there: a CPU budget measure); unset = train everything."
        },
    )
    shared_head_generation: bool = field(
        default=False,
        metadata={
            "help": "GRPO rollouts encode the prompts' shared head once per generation call "
            "instead of once per rollout and turn (plain sampling, one device, no vLLM)."
        },
    )
    dump_rollouts: int = field(
        default=0,
        metadata={
            "help": "Write this many rollouts of every GRPO step, every turn with its tool "
            "results and reward labels, to OUTPUT/rollouts.jsonl; 0 = none."
        },
    )
    warm_start_steps: int = field(
        default=0,
        metadata={
            "help": "Before GRPO, this many SFT steps on the verified traces of the training "
            "tasks (smoke runs: gives a tiny model a reward spread); 0 = none."
        },
    )
    warm_start_lr: float = field(default=3e-3, metadata={"help": "Warm start learning rate."})
    max_tasks: int | None = field(
        default=None,
        metadata={
            "help": "Use at most this many tasks, drawn across the domains in proportion (at "
            "least one each when N allows), the same tasks for the same N (trainer.selection)."
        },
    )
    heldout_fraction: float = field(
        default=0.0,
        metadata={
            "help": "Share of task contents (normalised instruction and answer) kept out of "
            "training for evaluation, content-disjoint (trainer.split), 0 <= F < 1; 0: train on "
            "every task."
        },
    )
    overwrite_output_dir: bool = field(
        default=False,
        metadata={
            "help": "Train into an --output_dir that holds a trained model or a checkpoint "
            "already (refused without, unless --resume_from_checkpoint continues it)."
        },
    )
    sandbox_workers: int = field(default=2, metadata={"help": "Sandbox worker processes."})
    isolation: str = field(default="bwrap", metadata={"help": ISOLATION_HELP})

    def tiny_size(self) -> tuple[int, int]:
        """(hidden, layers) of a `tiny-random` model."""
        return self.tiny_hidden, self.tiny_layers


def parse(trl_config: type, argv: Sequence[str]) -> tuple[ToolscaleArguments, Any]:
    """toolscale's options and a TRL config (GRPOConfig or SFTConfig) from `--config FILE` and
    `--key value` flags, with CPU defaults where no GPU is present (`trainer.cli_options`); a
    bad file or flag is a ConfigError."""
    if any(a.split("=")[0] == "--trace_variants" for a in argv):
        raise ConfigError(
            "--trace_variants is now --variants: best (the default: one best trace per task), "
            'all, or variant names such as "gold,expert-1"'
        )
    argv, cpu = with_cpu_defaults(argv)  # no GPU: TRL's bf16 / CUDA defaults would fail
    # transformers 5 renamed gradient_checkpointing; the old flag would lose to the config file's
    # activation_checkpointing, so it is read as the new one.
    argv = [
        a.replace("--gradient_checkpointing", "--activation_checkpointing", 1)
        if a.startswith("--gradient_checkpointing")
        else a
        for a in argv
    ]
    command = "grpo" if trl_config.__name__ == "GRPOConfig" else "sft"
    options, config = parse_flags(command, (ToolscaleArguments, trl_config), argv)
    variant_filter(options.variants)  # a bad --variants fails before any data is read
    check_domain_filter(options.domains)  # as do a misspelt domain and a fraction out of range
    check_fraction(options.heldout_fraction)
    check_model(options.model)  # a missing model folder too (not minutes of Hub retries)
    check_dataset(options.dataset)  # and a missing output folder
    if cpu:
        print(f"no GPU: training on the CPU ({', '.join(cpu)})", file=sys.stderr)
    if options.group_std_threshold < 0:
        raise ConfigError(f"group_std_threshold must be >= 0, not {options.group_std_threshold}")
    return options, config


TRAINED = ("model.safetensors", "model.safetensors.index.json")  # what save_model writes


def _trained(folder: Path) -> str | None:
    """What in `folder` shows a trained model (a saved model or a checkpoint), or None."""
    if not folder.is_dir():
        return None
    found = [name for name in TRAINED if (folder / name).exists()]
    found += sorted(p.name for p in folder.glob("checkpoint-*") if p.is_dir())[:1]
    return found[0] if found else None


def resume_target(config: Any, overwrite: bool = False) -> str | bool | None:
    """What `Trainer.train(resume_from_checkpoint=...)` gets from `--resume_from_checkpoint`:
    a checkpoint folder, or `true`/`last` for the newest checkpoint in the output folder. A run
    that does not resume into an output folder holding a trained model is a ConfigError unless
    `overwrite` (`--overwrite_output_dir`)."""
    from transformers.trainer_utils import get_last_checkpoint

    value = config.resume_from_checkpoint
    if value in (None, "", "false", "False"):
        found = _trained(Path(config.output_dir))
        if found is not None and not overwrite:
            raise ConfigError(
                f"--output_dir {config.output_dir} already holds a trained model ({found}); "
                "choose another folder or remove it, continue it with --resume_from_checkpoint "
                "last, or pass --overwrite_output_dir true"
            )
        return None
    if str(value).lower() in ("true", "last"):
        folder = Path(config.output_dir)
        if not folder.is_dir() or get_last_checkpoint(str(folder)) is None:
            raise ConfigError(f"--resume_from_checkpoint {value}: no checkpoint-* in {folder}")
        return True
    if not (Path(value) / "trainer_state.json").exists():
        raise ConfigError(
            f"--resume_from_checkpoint {value} is not a checkpoint folder (no trainer_state.json)"
        )
    return str(value)
