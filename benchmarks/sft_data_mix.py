"""What SFT trains on by default, and what `--max_tasks` draws, on a four-domain `--detours` run.

    PYTHONPATH=. .venv/bin/python benchmarks/sft_data_mix.py [--tasks 160] [--work DIR]

Prints the traces per kind of variant, the SFT rows under `--variants best` (the default) and
`--variants all`, and the domains of `--max_tasks N/4` (GRPO rows) beside the first N/4 rows.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import datasets

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from toolscale.stats.variants import with_kinds
from trainer.data import grpo_rows, sft_rows

DOMAINS = ["bank", "knowledge", "math", "railway"]


def options(out: Path, **kw) -> SimpleNamespace:
    base = dict(dataset=str(out), dataset_config=None, domains="all", templates="all")
    return SimpleNamespace(**{**base, "difficulties": "all", "max_tasks": None, **kw})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=160)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="sft-mix-"))
    out = work / "data"
    shutil.rmtree(out, ignore_errors=True)
    generate(GenerateConfig(domains=DOMAINS, num_tasks=args.tasks, out=out, detours=True))
    tasks = datasets.load_dataset(str(out), "tasks", split="train").to_pandas()
    traces = datasets.load_dataset(str(out), "traces", split="train").to_pandas()
    kinds = with_kinds(tasks, traces)["kind"].value_counts().to_dict()
    print(f"tasks {dict(Counter(tasks['domain']))}, verified traces {len(traces)}: {kinds}")
    best, every = sft_rows(options(out)), sft_rows(options(out, variants="all"))
    print(f"SFT rows: --variants best {len(best)}, --variants all {len(every)}")
    n = args.tasks // 4
    drawn = Counter(grpo_rows(options(out, max_tasks=n))["domain"])
    print(
        f"--max_tasks {n}: {dict(drawn)}; the first {n} rows: {dict(Counter(tasks['domain'][:n]))}"
    )


if __name__ == "__main__":
    main()
