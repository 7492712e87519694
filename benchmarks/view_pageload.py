"""Page-load time of `toolscale view` on a large output (issue 28).

Starts `toolscale view OUT --port 0` as a user would, then times full HTTP responses (request to
last byte) of the list (unfiltered, filtered, a deep page), attempt pages and task pages, and
optionally one headless Chromium `--dump-dom` of the list (browser start-up included).

    python benchmarks/view_pageload.py OUT [--copies K --big DEST] [--samples 30]

`--copies K` first builds DEST from OUT with every shard K times (ids repeat; a page still reads
one row group), to reach 100k attempts from a ~25k-attempt output.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyarrow.parquet as pq


def replicate(source: Path, dest: Path, copies: int) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    for path in sorted(source.rglob("*")):
        if path.is_file() and path.suffix != ".parquet":
            target = dest / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    for path in sorted((source / "data").glob("*/*.parquet")):
        folder = dest / "data" / path.parent.name
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(copies if path.parent.name != "worlds" else 1):
            shutil.copy(path, folder / f"{path.stem}-{k}.parquet")
    return dest


def fetch(url: str) -> tuple[float, int]:
    start = time.perf_counter()
    with urllib.request.urlopen(url) as answer:
        size = len(answer.read())
    return time.perf_counter() - start, size


def ids(out: Path, config: str, count: int, seed: int = 0) -> list[str]:
    found = []
    for path in sorted((out / "data" / config).glob("*.parquet")):
        found += pq.read_table(path, columns=["id"])["id"].to_pylist()
    return random.Random(seed).sample(found, min(count, len(found)))


def summary(times: list[float]) -> str:
    times = sorted(times)
    return (
        f"median {statistics.median(times) * 1000:.0f} ms, "
        f"p90 {times[int(0.9 * (len(times) - 1))] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--big", type=Path, default=Path("/tmp/toolscale-view-big"))
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--chromium", default=shutil.which("chromium"))
    args = parser.parse_args()
    out = replicate(args.out, args.big, args.copies) if args.copies > 1 else args.out
    attempts = sum(
        pq.ParquetFile(p).metadata.num_rows
        for c in ("traces", "rejected")
        for p in (out / "data" / c).glob("*.parquet")
    )
    print(f"{out}: {attempts} attempts")
    started = time.perf_counter()
    command = [sys.executable, "-m", "toolscale", "view", str(out), "--port", "0"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        base = line.split(" at ")[1].split()[0]
        print(f"start-up (process start to listening): {time.perf_counter() - started:.2f} s")
        stateful = pq.read_table(sorted((out / "data" / "tasks").glob("bank-*.parquet"))[0])
        cold, _ = fetch(f"{base}task-{stateful['id'][0].as_py()}.html")
        print(f"a bank task page right after start-up (waits for the worlds): {cold * 1000:.0f} ms")
        first, size = fetch(base)
        print(f"first list page (templates compiled): {first * 1000:.0f} ms, {size} bytes")
        lists = {
            "list": "index.html",
            "list domain=bank&status=verified": "index.html?domain=bank&status=verified",
            "list profile=cheap, page 40": "index.html?profile=cheap&page=40",
        }
        for name, path in lists.items():
            print(f"{name}: {summary([fetch(base + path)[0] for _ in range(args.samples)])}")
        traces = ids(out, "traces", args.samples) + ids(out, "rejected", args.samples // 3)
        timed = [fetch(f"{base}trace-{i}.html") for i in traces]
        print(f"attempt pages ({len(timed)}): {summary([t for t, _ in timed])}")
        tasks = ids(out, "tasks", args.samples)
        timed = [fetch(f"{base}task-{i}.html") for i in tasks]
        print(f"task pages ({len(tasks)}): {summary([t for t, _ in timed])}")
        if args.chromium:
            start = time.perf_counter()
            browser = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu"]
            subprocess.run([*browser, "--dump-dom", base], capture_output=True, check=True)
            print(
                f"chromium --dump-dom of the list, browser start included: "
                f"{time.perf_counter() - start:.2f} s"
            )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
