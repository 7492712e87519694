"""How much a run's `tasks` config weighs with worlds stored once, against per-task copies.

Reads a `toolscale generate` output, and writes its tasks again the way rows were stored before
worlds existed: each row carrying its whole initial state. Both are written with the output's
own parquet settings (zstd), so the ratio is what the per-run world saves on disk.

    .venv/bin/toolscale generate --domains railway,bank --num-tasks 10000 --out /tmp/w10k
    .venv/bin/python benchmarks/world_storage.py /tmp/w10k
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from toolscale.core.contract import canonical_json
from toolscale.core.records import Task
from toolscale.sample import worlds
from toolscale.write.output import Output


def size(paths: list[Path]) -> int:
    return sum(p.stat().st_size for p in paths)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    output = Output(args.out)
    store = worlds.WorldStore.of_output(args.out)
    rows = [row for _, row in output.read_rows("tasks")]
    copies = []
    for row in rows:
        task = Task.from_row(row, store)
        copies.append({**row, "world": "", "initial_state": canonical_json(task.initial_state)})
    with tempfile.TemporaryDirectory() as tmp:
        copy = Output(Path(tmp))
        for start in range(0, len(copies), 50):  # shards of the run's default chunk size
            copy.write_shard("tasks", f"copy-{start:06d}", copies[start : start + 50])
        per_task = size(copy.shards("tasks"))
    stored = size(output.shards("tasks")) + size(output.shards("worlds"))
    world_rows = [row for _, row in output.read_rows("worlds")]
    # What `datasets` holds in memory (Arrow) for the state column, uncompressed.
    raw = sum(len(r["initial_state"]) for r in rows) + sum(len(w["state"]) for w in world_rows)
    raw_copies = sum(len(r["initial_state"]) for r in copies)
    print(f"tasks: {len(rows)}, worlds: {len(world_rows)}")
    print(
        f"on disk: tasks + worlds {stored / 1e6:.2f} MB; per-task copies {per_task / 1e6:.2f} MB"
        f" ({per_task / stored:.1f}x)"
    )
    print(
        f"state text in memory: {raw / 1e6:.2f} MB; per-task copies {raw_copies / 1e6:.2f} MB"
        f" ({raw_copies / raw:.1f}x)"
    )


if __name__ == "__main__":
    main()
