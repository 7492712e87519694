"""Save the nano-orchestrator's untrained starting point: a `tiny-random` Qwen3 of a given size
and its BPE learnt from the training side's SFT conversations only, as a checkpoint folder.

SFT starts from that folder (`--model FOLDER`), and `toolscale-train evaluate --base_model
FOLDER` puts it beside the trained model, so the base row is the very model training began
from. It does not train anything (benchmarks/nano_orchestrator.py runs the recipe).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from trainer.data import conversations, sft_rows
from trainer.model import tiny_random_model, tiny_tokenizer


def save_base(
    dataset: str | Path,
    out: str | Path,
    domains: str = "all",
    heldout_fraction: float = 0.2,
    hidden: int = 64,
    layers: int = 2,
    seed: int = 0,
) -> Path:
    """Build and save the untrained model in `out`; its tokenizer never reads a held-out task."""
    view = SimpleNamespace(
        dataset=str(dataset),
        dataset_config="traces",
        domains=domains,
        templates="all",
        difficulties="all",
        variants="best",
        max_tasks=None,
        heldout_fraction=heldout_fraction,
    )
    tokenizer = tiny_tokenizer(conversations(sft_rows(view)))
    model = tiny_random_model(tokenizer, seed=seed, hidden=hidden, layers=layers)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return Path(out)
