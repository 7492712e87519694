"""One sha256 per row of a `toolscale generate` output, to show a refactor moved no row.

Each row of each config (`tasks`, `traces`, `rejected`, and any other under `data/`) is hashed
as its canonical JSON (every column, keys sorted); rows are keyed by their `id`. `save` writes
the table of hashes, `compare` prints the rows that differ, are missing or are new, and exits
1 when any does. Used for issue 49's domain dialect: a domain rewritten in the kit's shorter
dialect must give the same tasks, traces and rejected attempts, byte for byte.

    toolscale generate --domains all --num-tasks 240 --detours --seed 0 --out /tmp/before
    .venv/bin/python benchmarks/row_hashes.py save /tmp/before /tmp/before.json
    # ... change the domains, generate again into /tmp/after ...
    .venv/bin/python benchmarks/row_hashes.py compare /tmp/after /tmp/before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq


def _default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot hash a {type(value).__name__}")


def row_hashes(out: Path) -> dict[str, dict[str, str]]:
    """{config: {"domain id": sha256 of the row's canonical JSON}}, every parquet in out/data."""
    data = out / "data"
    if not data.is_dir():
        raise SystemExit(f"error: {out} has no data/ folder; give a `toolscale generate` output")
    hashes: dict[str, dict[str, str]] = {}
    for path in sorted(data.glob("*/*.parquet")):
        table = hashes.setdefault(path.parent.name, {})
        for row in pq.read_table(path).to_pylist():
            text = json.dumps(row, sort_keys=True, default=_default, ensure_ascii=False)
            key = f"{row.get('domain', '')} {row['id']}"  # grouped by domain when sorted
            if key in table:
                raise SystemExit(f"error: {path.parent.name} has the id {key} twice")
            table[key] = hashlib.sha256(text.encode()).hexdigest()
    return {config: dict(sorted(rows.items())) for config, rows in hashes.items()}


def differences(now: dict[str, dict[str, str]], then: dict[str, dict[str, str]]) -> list[str]:
    """One line per row that changed, went missing or is new, by config."""
    lines = []
    for config in sorted(set(now) | set(then)):
        a, b = now.get(config, {}), then.get(config, {})
        same = sorted(a.keys() & b.keys())
        lines += [f"{config} {key}: changed" for key in same if a[key] != b[key]]
        lines += [f"{config} {key}: missing" for key in sorted(b.keys() - a.keys())]
        lines += [f"{config} {key}: new" for key in sorted(a.keys() - b.keys())]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument("out", type=Path, help="a toolscale generate output folder")
    parser.add_argument("table", type=Path, help="the JSON file of hashes (written or read)")
    args = parser.parse_args()
    now = row_hashes(args.out)
    counts = ", ".join(f"{len(rows)} {config}" for config, rows in now.items())
    if args.action == "save":
        args.table.write_text(json.dumps(now, indent=1) + "\n")
        print(f"wrote {args.table}: {counts}")
        return
    lines = differences(now, json.loads(args.table.read_text()))
    for line in lines:
        print(line)
    if lines:
        print(f"{len(lines)} rows differ ({counts})", file=sys.stderr)
        raise SystemExit(1)
    print(f"every row hashes as before: {counts}")


if __name__ == "__main__":
    main()
