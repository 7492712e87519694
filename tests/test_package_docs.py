r"""Every package's docstring lists what it holds: under a line `Holds:`, one `- \`name\`` entry
per module (`- \`name/\`` per sub-package), and the list equals the package's files; no two
modules of `toolscale/` and `trainer/` a reader would confuse share a name. Each checker is also
shown failing on a deliberately broken tree."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAD = "Holds:"
ENTRY = re.compile(r"^- `([A-Za-z_][A-Za-z0-9_]*/?)`")
# toolscale/kit/ is being rewritten by the domain-dialect change (issue 49, item 1), which gives
# its docstring the list; until it lands the kit's prose names its modules.
EXEMPT = {"toolscale/kit"}
# Module names that repeat where the package says which is meant: a re-export at a stable path
# (contract), a command's config beside its driver (generate), the same role in parallel stages
# (prompts, spec, files, endpoints, server, domain, scenario), or one concern seen from two
# stages (evidence, consent, facts, budgets: what the kit requires vs what the judge checks).
SHARED = {
    "contract", "generate", "prompts", "spec", "files", "endpoints", "server", "domain",
    "scenario", "evidence", "consent", "facts", "budgets",
}  # fmt: skip


def packages(root: Path = ROOT) -> list[Path]:
    found = [p.parent for p in (root / "toolscale").rglob("__init__.py")]
    found += [p.parent for p in (root / "trainer").rglob("__init__.py")]
    return sorted(p for p in found if str(p.relative_to(root)) not in EXEMPT)


def listed(package: Path) -> set[str] | None:
    """The names the package docstring's `Holds:` list gives; None without such a list."""
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    lines = (doc or "").splitlines()
    if HEAD not in lines:
        return None
    return {m.group(1) for line in lines[lines.index(HEAD) + 1 :] if (m := ENTRY.match(line))}


def held(package: Path) -> set[str]:
    """The package's modules (but `__init__`) and sub-packages (`name/`)."""
    names = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    return names | {p.name + "/" for p in package.iterdir() if (p / "__init__.py").is_file()}


def mismatches(root: Path = ROOT) -> dict[str, tuple[set[str], set[str]]]:
    """Per package whose list is wrong: (files it leaves out, names it lists that are not there)."""
    found = {}
    for package in packages(root):
        names = listed(package)
        if names is None:
            found[str(package.relative_to(root))] = (held(package), set())
        elif names != held(package):
            found[str(package.relative_to(root))] = (held(package) - names, names - held(package))
    return found


def repeated(root: Path = ROOT) -> dict[str, list[str]]:
    """Module names found in more than one package of toolscale/ and trainer/, but SHARED."""
    where = defaultdict(list)
    for base in ("toolscale", "trainer"):
        for path in (root / base).rglob("*.py"):
            if path.name != "__init__.py" and path.stem not in SHARED:
                where[path.stem].append(str(path.relative_to(root)))
    return {name: sorted(paths) for name, paths in where.items() if len(paths) > 1}


def test_every_package_docstring_lists_exactly_its_modules() -> None:
    assert mismatches() == {}


def test_trainer_has_a_package_docstring() -> None:
    assert listed(ROOT / "trainer") == held(ROOT / "trainer")


def test_a_list_that_misses_or_invents_a_module_fails(tmp_path: Path) -> None:
    package = tmp_path / "toolscale" / "stage"
    package.mkdir(parents=True)
    (tmp_path / "trainer").mkdir()
    (tmp_path / "trainer" / "__init__.py").write_text('"""T.\n\nHolds:\n"""\n')
    (package / "__init__.py").write_text('"""S.\n\nHolds:\n- `a`: one.\n- `gone`: old.\n"""\n')
    (package / "a.py").write_text('"""A."""\n')
    (package / "b.py").write_text('"""B."""\n')
    (tmp_path / "toolscale" / "__init__.py").write_text('"""Root, no list."""\n')
    assert mismatches(tmp_path) == {
        "toolscale": ({"stage/"}, set()),
        "toolscale/stage": ({"b"}, {"gone"}),
    }


def test_no_two_modules_share_a_name_a_reader_would_confuse() -> None:
    assert repeated() == {}


def test_a_repeated_module_name_fails(tmp_path: Path) -> None:
    for path in ("toolscale/a/run.py", "toolscale/b/run.py", "trainer/run.py", "trainer/x.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert repeated(tmp_path) == {
        "run": ["toolscale/a/run.py", "toolscale/b/run.py", "trainer/run.py"]
    }
