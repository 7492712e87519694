"""`toolscale card`, `push` and `export`: parse the flags, call the publishing function of the
same name (`toolscale.publish`), say what it wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolscale.cli.progress import console, fail
from toolscale.core.errors import ConfigError


def card_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    repo_id: Annotated[str | None, typer.Option(help="Hub id for the loading example.")] = None,
    license: Annotated[str, typer.Option(help="Licence the card declares.")] = "apache-2.0",
    tokenizer: Annotated[
        Path | None,
        typer.Option(help="Tokenizer folder (the trainer's model) for the card's token counts."),
    ] = None,
) -> None:
    """(Re)write OUT/README.md, the dataset card, from run.json and the data."""
    from toolscale.publish.card import card

    try:
        path = card(out, repo_id=repo_id, license_id=license, tokenizer=tokenizer)
    except ConfigError as exc:
        fail(str(exc))
    console.print(f"wrote {path}", highlight=False)


def push_command(
    out: Annotated[Path, typer.Argument(help="A complete toolscale output folder.")],
    repo_id: Annotated[str, typer.Option(help="Dataset repository ORG/NAME.")],
    private: Annotated[bool, typer.Option(help="Create the repository private.")] = False,
    revision: Annotated[str | None, typer.Option(help="Branch to commit to.")] = None,
    dry_run: Annotated[bool, typer.Option(help="Check and list files; upload nothing.")] = False,
    license: Annotated[str, typer.Option(help="Licence the card declares.")] = "apache-2.0",
) -> None:
    """Check that every config loads, re-render the card, upload to the Hugging Face Hub."""
    from toolscale.publish.push import PushError, push

    try:
        result = push(
            out, repo_id, private=private, revision=revision, dry_run=dry_run, license_id=license
        )
    except ConfigError as exc:
        fail(str(exc))
    except PushError as exc:
        fail(str(exc), code=1)
    for name, size in result.files:
        console.print(f"{size:>12}  {name}", highlight=False)
    verb = "uploaded" if result.uploaded else "would upload (dry run)"
    console.print(f"{verb} {len(result.files)} files to {repo_id}", highlight=False)


VARIANTS_HELP = (
    "sft only: which traces. best (the default, what toolscale-train sft takes): one per task, "
    "never a deliberate detour; all: every verified trace, detours included (GRPO contrast); "
    'or variant names such as "gold,expert-1".'
)


def export_command(
    out: Annotated[Path, typer.Argument(help="A toolscale output folder.")],
    dest: Annotated[Path, typer.Argument(help="Folder to write into.")],
    format: Annotated[str, typer.Option(help="tau2 (task files) or sft (chat JSONL).")] = "tau2",
    variants: Annotated[str | None, typer.Option(help=VARIANTS_HELP)] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Write into a DEST that holds files already (refused without).")
    ] = False,
) -> None:
    """Write the dataset as tau2-bench task files or as chat-format JSONL for SFT (by default the
    traces toolscale-train sft selects, with their variant and rewards)."""
    from toolscale.publish.export import export

    def say(line: str) -> None:
        console.print(line, highlight=False, markup=False, soft_wrap=True)

    try:
        written = export(out, dest, format, variants=variants, say=say, overwrite=overwrite)
    except ConfigError as exc:
        fail(str(exc))
    files = "file" if len(written) == 1 else "files"
    console.print(f"wrote {len(written)} {files} under {dest}", highlight=False)
