"""Lines of each domain's Python files, counted four ways: every line, non-blank lines, those
less comment lines, and those less docstring lines (module, class and function docstrings: a
tool's docstring is the description its schema gives the model). Policy text (policy.md) and
tests are not in domains/<name>/*.py, so they are not counted.

    .venv/bin/python benchmarks/domain_lines.py basketball ecommerce medicine movie
"""

from __future__ import annotations

import argparse
import ast
import io
import statistics
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("lines", "non-blank", "less comments", "less docstrings")


def counts(source: str) -> tuple[int, int, int, int]:
    lines = source.splitlines()
    blank = {n for n, line in enumerate(lines, 1) if not line.strip()}
    comments = {
        tok.start[0]
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT and lines[tok.start[0] - 1].lstrip().startswith("#")
    }
    docs: set[int] = set()
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(ast.parse(source)):
        first = node.body[0] if isinstance(node, kinds) and node.body else None
        if isinstance(first, ast.Expr) and isinstance(getattr(first.value, "value", None), str):
            docs.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    total = len(lines)
    return (
        total,
        total - len(blank),
        total - len(blank | comments),
        total - len(blank | comments | docs),
    )


def domain_counts(name: str) -> tuple[int, ...]:
    files = sorted((ROOT / "domains" / name).glob("*.py"))
    if not files:
        raise SystemExit(f"error: domains/{name} has no Python files")
    per_file = [counts(f.read_text()) for f in files]
    return tuple(sum(column) for column in zip(*per_file, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="+")
    names = parser.parse_args().domains
    rows = {name: domain_counts(name) for name in names}
    print(f"{'domain':12s}" + "".join(f"{c:>17s}" for c in COLUMNS))
    for name, row in rows.items():
        print(f"{name:12s}" + "".join(f"{v:>17d}" for v in row))
    means = [statistics.fmean(r[i] for r in rows.values()) for i in range(len(COLUMNS))]
    print(f"{'average':12s}" + "".join(f"{v:>17.0f}" for v in means))


if __name__ == "__main__":
    main()
