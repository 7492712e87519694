"""What one topic leaves in DIR: an accepted domain's package, a rejected one's files and
reason, and the topic's marker (what `--resume` skips), each written whole or not at all.

    DIR/domains/<name>/        the five files, test_<name>.py and the model-written mark
                               (`model_written.json`: its pool workers start in bubblewrap until
                               a person sets "trusted": true); DIR/domains/README.md has a line
                               per accepted domain saying how to install it
    DIR/rejected/<name>/       the files as last written (or the model's last answer, answer.md),
                               spec.json when the spec passed, and reason.json
    DIR/.toolscale/specs/<name>.json    an accepted domain's spec (merge needs it when it
                                        rejects the domain as a near-duplicate across shards)
    DIR/.toolscale/topics/<name>.json   the topic's record, written last

A record keeps the domain's tool signature (`shingles`) whenever the near-duplicate gate saw
it, so `toolscale merge` can run that gate again across shards without the code.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from toolscale.domaingen.author import Authored
from toolscale.kit.scaffold import domain_test
from toolscale.sandbox.contained import MARK
from toolscale.write.output import MARKER, atomic_write, write_json

ABOUT = (
    "Written by `toolscale synthesize-domain`. Run it with DIR/domains on PYTHONPATH, after a\n"
    "person has read the domain (docs/synthesize-domain.md)."
)


REASON = ("topic", "stage", "problems", "contained", "repairs")
TRUST = (
    "A model wrote this domain: toolscale runs its tools only in bubblewrap (no network, a "
    "read-only file system, its own /tmp). After reading it (docs/synthesize-domain.md), set "
    '"trusted" to true to run it as ordinary code.'
)


def mark_text(topic: str) -> str:
    """The model-written mark of an accepted domain (`toolscale.sandbox.contained`)."""
    mark = {"written_by": "toolscale synthesize-domain", "topic": topic, "trusted": False}
    return json.dumps(mark | {"about": TRUST}, indent=2) + "\n"


def topics_dir(root: Path) -> Path:
    return root / MARKER / "topics"


def spec_path(root: Path, name: str) -> Path:
    return root / MARKER / "specs" / f"{name}.json"


def spec_text(spec: dict[str, Any]) -> str:
    return json.dumps(spec, indent=2) + "\n"


def reason_text(entry: dict[str, Any]) -> str:
    """A rejected domain's reason.json, from its record."""
    return json.dumps({k: entry[k] for k in REASON}, indent=2) + "\n"


def done(root: Path) -> dict[str, dict[str, Any]]:
    """The records of the topics a previous run finished, by name."""
    found = {}
    for path in sorted(topics_dir(root).glob("*.json")):
        found[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return found


def record(result: Authored, usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "topic": result.topic,
        "name": result.name,
        "stage": result.stage,
        "accepted": result.stage == "accepted",
        "problems": result.problems,
        "repairs": result.repairs,
        "contained": result.contained,
        "measured": result.measured,
        "usage": usage,
        "wall_s": result.wall_s,
        "shingles": sorted(result.shingles),  # empty when it stopped before the gate
    }


def write_folder(target: Path, files: dict[str, str]) -> None:
    """`files` as the folder `target`, replacing one a killed run left."""
    tmp = target.with_name(f".{target.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name, body in files.items():
        (tmp / name).write_text(body, encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp, target)


def write_topic(root: Path, result: Authored, usage: dict[str, Any]) -> dict[str, Any]:
    """The topic's folder, then its marker; returns its record."""
    entry = record(result, usage)
    if entry["accepted"]:
        cls = result.measured["domain_class"]
        test = domain_test(result.name, cls, result.name, ABOUT)
        files = {**result.files, f"test_{result.name}.py": test, MARK: mark_text(result.topic)}
        write_folder(root / "domains" / result.name, files)
        if result.spec is not None:
            atomic_write(spec_path(root, result.name), spec_text(result.spec).encode())
    else:
        kept = dict(result.files) or {"answer.md": result.answer}
        if result.spec is not None:
            kept["spec.json"] = spec_text(result.spec)
        kept["reason.json"] = reason_text(entry)
        write_folder(root / "rejected" / result.name, kept)
    topics_dir(root).mkdir(parents=True, exist_ok=True)
    write_json(topics_dir(root) / f"{result.name}.json", entry)
    return entry


def write_index(root: Path, records: dict[str, dict[str, Any]], shown: Path | None = None) -> None:
    """DIR/domains/README.md: one line per accepted domain, with how to install it from the
    folder `shown` (DIR/domains, where the README is read)."""
    accepted = [r for _, r in sorted(records.items()) if r["accepted"]]
    if not accepted:
        return
    folder = (shown or root / "domains").resolve()
    lines = [
        "# Domains written by toolscale synthesize-domain",
        "",
        "Read each domain before installing it (docs/synthesize-domain.md). Install one with",
        f"`PYTHONPATH={folder}` and the `TOOLSCALE_DOMAINS` entry on its line. Each one's",
        f'{MARK} keeps its tools in bubblewrap until you set "trusted": true in it.',
        "",
    ]
    for r in accepted:
        m = r["measured"]
        entry = f"{r['name']}={r['name']}:{m['domain_class']}"
        lines.append(
            f"- `{r['name']}` ({r['topic']}): {m.get('tools')} tools, {m.get('templates')} "
            f'templates; `TOOLSCALE_DOMAINS="{entry}"`'
        )
    atomic_write(root / "domains" / "README.md", ("\n".join(lines) + "\n").encode())
