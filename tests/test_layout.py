"""The layout holds: packages import only the packages docs/architecture.md's table lets them
(lazy and TYPE_CHECKING imports count), so no two packages import each other; no import cycle
between modules; no module over 400 lines in toolscale/, trainer/ or domains/; and every stage
package is named in the doc. Each checker is also shown failing on a deliberately broken tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("toolscale", "trainer", "domains")
MAX_LINES = 400
# The stable import paths for outside code: re-exports of the stages, which no stage imports.
ROOT_MODULES = {"toolscale", "toolscale.contract", "toolscale.domain_kit", "toolscale.__main__"}
TABLE_HEADING = "## Which package may import which"


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that `name` imports anywhere in its file. `from pkg import sub`
    imports the module `pkg.sub`, not the package's `__init__`."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def package(module: str) -> str:
    """The table's name for a module's package: `sample` for toolscale.sample.tasks, `root` for
    the stable import paths, `trainer` and `domains` for everything under those folders."""
    if module in ROOT_MODULES or module.startswith("toolscale.domain_kit."):
        return "root"
    parts = module.split(".")
    return parts[1] if parts[0] == "toolscale" else parts[0]


def table(doc: str) -> dict[str, set[str]]:
    """The package dependency table of docs/architecture.md: package -> packages it may import."""
    section = doc.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    allowed: dict[str, set[str]] = {}
    for row in re.findall(r"^\| `([a-z0-9_]+)` \|([^|]*)\|", section, re.M):
        allowed[row[0]] = set(re.findall(r"`([a-z0-9_]+)`", row[1]))
    return allowed


def back_edges(root: Path, allowed: dict[str, set[str]]) -> list[str]:
    """Every import of a module into a package its own package may not import, as one line."""
    known = modules(root)
    found = []
    for name, path in sorted(known.items()):
        for target in sorted(imported(name, path, known)):
            a, b = package(name), package(target)
            if a != b and b not in allowed.get(a, set()):
                found.append(f"{name} imports {target} ({a} may not import {b})")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def long_modules(root: Path) -> dict[str, int]:
    return {
        str(path.relative_to(root)): n
        for path in modules(root).values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }


def _tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (root / package).mkdir(exist_ok=True)
    return root


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def _doc() -> str:
    return (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_table_names_every_package_and_points_one_way() -> None:
    allowed = table(_doc())
    present = {package(name) for name in modules()}
    assert sorted(present - set(allowed)) == []
    assert sorted({b for bs in allowed.values() for b in bs} - set(allowed)) == []
    assert cycles(allowed) == []


def test_every_import_is_one_the_table_allows() -> None:
    assert back_edges(ROOT, table(_doc())) == []


def test_a_package_back_edge_fails(tmp_path: Path) -> None:
    broken = _tree(
        tmp_path,
        {
            "toolscale/__init__.py": "",
            "toolscale/core/__init__.py": "",
            "toolscale/core/records.py": "from toolscale.sample import tasks\n",
            "toolscale/sample/__init__.py": "",
            "toolscale/sample/tasks.py": "from toolscale.core.records import Task\n",
            "toolscale/play/__init__.py": "",
            "toolscale/play/later.py": "def f():\n    from toolscale.sample.tasks import x\n",
        },
    )
    allowed = {"core": set(), "sample": {"core"}, "play": {"core"}}
    assert back_edges(broken, allowed) == [
        "toolscale.core.records imports toolscale.sample.tasks (core may not import sample)",
        "toolscale.play.later imports toolscale.sample.tasks (play may not import sample)",
    ]
    assert cycles({"core": {"sample"}, "sample": {"core"}}) == [["core", "sample"]]


def test_no_module_imports_itself_back() -> None:
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []


def test_no_module_is_over_400_lines() -> None:
    assert long_modules(ROOT) == {}


def test_a_long_module_fails_anywhere(tmp_path: Path) -> None:
    long = "x = 1\n" * (MAX_LINES + 1)
    broken = _tree(
        tmp_path,
        {"domains/shop/__init__.py": long, "trainer/ok.py": "x = 1\n", "toolscale/a/b.py": long},
    )
    assert long_modules(broken) == {
        "domains/shop/__init__.py": MAX_LINES + 1,
        "toolscale/a/b.py": MAX_LINES + 1,
    }


def test_the_architecture_doc_names_every_stage_package() -> None:
    doc = _doc()
    packages = sorted(
        p.name for p in (ROOT / "toolscale").iterdir() if (p / "__init__.py").is_file()
    )
    assert [p for p in packages if f"`toolscale/{p}/`" not in doc] == []
