"""The files stage's answer: the five files of a kit v2 domain (`FILES`: docs/kit.md's list less
the optional invariants.py), read out of the model's text and written as a package folder; no
code in them is run here.

The model writes each file as a fenced block whose info string (or the line above it) names the
file: ```` ```python tools.py ````. A missing file, an empty one or one over `MAX_CHARS` is a
problem line; the files are written as they are, for the sandbox to import.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

FILES = ("world.py", "rules.py", "tools.py", "policy.md", "__init__.py")
MAX_CHARS = 60_000
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)


def _named(info: str, before: str) -> str | None:
    for text in (info, before):
        for name in FILES:
            if re.search(rf"(?<![\w.]){re.escape(name)}\b", text):
                return name
    return None


def parse(text: str) -> tuple[dict[str, str], list[str]]:
    """The files found in `text` (the last block of each name wins), and the problems."""
    found: dict[str, str] = {}
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip().rpartition("\n")[2]
        name = _named(match.group(1), before)
        if name is not None:
            found[name] = match.group(2)
    problems = [
        f"{name} is missing; write it as a fenced block named {name}"
        for name in FILES
        if not found.get(name, "").strip()
    ]
    problems += [
        f"{name} has {len(body):,} characters; keep a file under {MAX_CHARS:,}"
        for name, body in found.items()
        if len(body) > MAX_CHARS
    ]
    return found, problems


def write_package(folder: Path, files: dict[str, str]) -> Path:
    """`files` written into `folder` (replacing what was there), readable by the sandbox's
    dedicated uid; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.is_file():
            old.unlink()
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
        os.chmod(folder / name, 0o644)
    os.chmod(folder, 0o755)
    return folder


def as_text(files: dict[str, str]) -> str:
    """The files as the model is asked to write them (a repair prompt quotes them so)."""
    blocks = []
    for name in FILES:
        if name in files:
            lang = "markdown" if name.endswith(".md") else "python"
            blocks.append(f"```{lang} {name}\n{files[name].rstrip()}\n```")
    return "\n\n".join(blocks)
