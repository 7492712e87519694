"""`toolscale export`: write an output folder in another project's format — tau2-bench task
files (`--format tau2`) or chat-format JSONL for supervised fine-tuning (`--format sft`).

tau2: one folder per stateful domain as tau2-bench keeps a domain (`db.json` once, `tasks.json`,
`policy.md`, `tools.json`), which `python -m toolscale.tau2.bench DEST run --domain NAME ...`
runs in tau2-bench (`toolscale.publish.tau2_export`, `toolscale.tau2.bench`).

sft: `DEST/sft.jsonl`, the traces SFT imitates (by default `--variants best`, the trainer's own
selection), one per line with its variant and rewards (`toolscale.publish.sft_export`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from toolscale.core.errors import ConfigError
from toolscale.publish.sft_export import export_sft
from toolscale.publish.tau2_export import export_tau2
from toolscale.write.output import Output

FORMATS = ("tau2", "sft")


def export(
    out: Path | str,
    dest: Path | str,
    format: str = "tau2",
    variants: str | None = None,
    say: Callable[[str], None] | None = None,
    overwrite: bool = False,
) -> list[Path]:
    """Write OUT's data to DEST in `format` ("tau2" or "sft"); returns the files written.

    Args:
        out: A toolscale output folder.
        dest: The folder to write into (created if missing); one that holds files already is
            refused unless `overwrite`.
        format: "tau2" for tau2-bench task files, "sft" for chat-format JSONL.
        variants: sft only: which traces (`toolscale.stats.sft_choice`); None means "best", the
            trainer's default: one trace per task, never a detour.
        say: Told what was written: for sft how many traces of which variants, for tau2 the
            command that runs the tasks in tau2-bench.
        overwrite: Write into a DEST that holds files already (files of the same names are
            replaced, others left as they are).
    """
    out, dest = Path(out), Path(dest)
    if format not in FORMATS:
        raise ConfigError(f"unknown --format {format!r}; use one of: {', '.join(FORMATS)}")
    if variants is not None and format != "sft":
        raise ConfigError("--variants selects SFT traces; use it with --format sft")
    if not (out / "data" / "tasks").is_dir():
        raise ConfigError(f"{out} holds no data/tasks folder; give the --out folder of a run")
    if dest.exists() and not dest.is_dir():
        raise ConfigError(f"{dest} is a file; choose a folder to export into")
    if not overwrite and dest.is_dir() and any(dest.iterdir()):
        raise ConfigError(
            f"{dest} already holds files; choose another folder or remove it "
            "(--overwrite writes over it)"
        )
    output = Output(out)
    if format == "tau2":
        return export_tau2(output, dest, say)
    written, about = export_sft(output, dest, "best" if variants is None else variants)
    if say is not None:
        say(about)
    return written
