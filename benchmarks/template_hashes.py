"""One sha256 per template of each kit domain: the tasks it samples by name, and its weight.

A generate run of a few hundred tasks samples each domain by weight and may never draw a rare
template; this samples every template of the named domains (`sample_named`, `template_rng`, as
check-domain does) for `--draws` draws of run seed 0, and hashes the task specs (instruction,
gold actions, required facts, scenario, alternatives ...) with the template's weight. `save`
writes the table; `compare` prints the templates that differ, are missing or are new and exits 1
when any does. With `row_hashes.py` it shows that a domain rewritten in the kit's short dialect
(issue 49) samples what it sampled before.

    .venv/bin/python benchmarks/template_hashes.py save /tmp/templates.json bank railway
    .venv/bin/python benchmarks/template_hashes.py compare /tmp/templates.json bank railway
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from toolscale.core.ids import template_rng
from toolscale.core.registry import get_domain
from toolscale.kit.domain import KitDomain


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return repr(value)


def template_hashes(name: str, draws: int) -> dict[str, str]:
    """{template: sha256 of its weight and `draws` sampled specs} for domain `name`."""
    domain = get_domain(name)
    if not isinstance(domain, KitDomain):
        raise SystemExit(f"error: {name} is not a kit domain; name a stateful domain")
    hashes = {}
    for template, (_, weight) in domain.template_table.items():
        specs: list[Any] = [weight]
        for draw in range(draws):
            rng = template_rng(name, 0, template, draw)
            try:
                specs.append(domain.sample_named(rng, 0, draw, template))
            except Exception as exc:  # a template that finds nothing is part of what it does
                specs.append(f"{type(exc).__name__}: {exc}")
        text = json.dumps(specs, sort_keys=True, default=_plain, ensure_ascii=False)
        hashes[template] = hashlib.sha256(text.encode()).hexdigest()
    return hashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument("table", type=Path, help="the JSON file of hashes (written or read)")
    parser.add_argument("domains", nargs="+")
    parser.add_argument("--draws", type=int, default=3, help="tasks sampled per template")
    args = parser.parse_args()
    now = {name: template_hashes(name, args.draws) for name in args.domains}
    counts = ", ".join(f"{name} {len(table)}" for name, table in now.items())
    if args.action == "save":
        args.table.write_text(json.dumps(now, indent=1) + "\n")
        print(f"wrote {args.table}: templates of {counts}")
        return
    then = json.loads(args.table.read_text())
    lines = []
    for name in args.domains:
        a, b = now[name], then.get(name, {})
        lines += [f"{name} {t}: changed" for t in sorted(a.keys() & b.keys()) if a[t] != b[t]]
        lines += [f"{name} {t}: missing" for t in sorted(b.keys() - a.keys())]
        lines += [f"{name} {t}: new" for t in sorted(a.keys() - b.keys())]
    for line in lines:
        print(line)
    if lines:
        print(f"{len(lines)} templates differ", file=sys.stderr)
        raise SystemExit(1)
    print(f"every template samples as before: {counts}")


if __name__ == "__main__":
    main()
