"""Where `toolscale new-domain` puts a domain and how it gets registered: a new folder becomes an
installable package (a pyproject.toml with the `toolscale.domains` entry points, the folder its
import package), so `pip install -e DIR` registers every domain in it; a package folder of another
project (toolscale's own `domains/`) gets the domain alone, registered by that project.

What the domain's own files say is `toolscale.kit.scaffold`'s.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from toolscale.core.errors import ConfigError

MARK = "# Written by `toolscale new-domain`"
PYPROJECT = (
    MARK
    + """: `pip install -e {folder}` installs the package
# `{package}` (this folder) and registers the domains below with toolscale; run it again after
# adding one.
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{project}"
version = "0.1.0"
description = "toolscale domains"
requires-python = ">=3.11"

[tool.setuptools]
package-dir = {{ {package} = "." }}

[tool.setuptools.package-data]
"*" = ["*.md", "*.json"]

# name = "module:Class", one line per domain: the entry-point group toolscale finds domains in.
[project.entry-points."toolscale.domains"]
"""
)
PACKAGE_INIT = '''"""toolscale domains from `toolscale new-domain`, one folder each (registered by
pyproject.toml)."""
'''


@dataclass(frozen=True)
class Placement:
    """Where a new domain goes: `into/NAME`, importable as `package.NAME`; `project` is the
    pyproject.toml new-domain writes and registers it in (None: `into` is a package of another
    project, whose own pyproject must register it)."""

    into: Path
    package: str
    project: Path | None


def entry(name: str, package: str, cls: str) -> str:
    """The entry-point line of domain `name`, class `cls`, in package `package`."""
    return f'{name} = "{package}.{name}:{cls}"'


def _within(spec: importlib.machinery.ModuleSpec, folder: Path) -> bool:
    places = [spec.origin, *(spec.submodule_search_locations or [])]
    return any(p and Path(p).resolve() in (folder, folder / "__init__.py") for p in places)


def placement(into: Path) -> Placement:
    """Where `new-domain --into INTO` writes: a folder made by new-domain before, a package
    folder (with `__init__.py`), or a new or empty folder that becomes a package. A ConfigError
    for any other folder (new-domain does not write into it), and for a new package whose name is
    no identifier or is already importable from elsewhere (it would be shadowed)."""
    into = into.resolve()
    project = into / "pyproject.toml"
    if project.is_file() and project.read_text(encoding="utf-8").startswith(MARK):
        return Placement(into, into.name, project)
    if (into / "__init__.py").is_file():
        return Placement(into, into.name, None)
    if into.exists() and (not into.is_dir() or any(into.iterdir())):
        raise ConfigError(
            f"{into} is neither a new or empty folder nor a Python package (no __init__.py); pass "
            "--into a new folder (it becomes an installable package) or a package folder"
        )
    package = into.name
    if not package.isidentifier() or keyword.iskeyword(package):
        raise ConfigError(
            f"--into {into.name!r}: the folder's name is the package's import name, so it must be "
            "a Python identifier, such as my_domains"
        )
    found = importlib.util.find_spec(package)
    if found is not None and not _within(found, into):
        raise ConfigError(
            f"a package named {package!r} is already importable ({found.origin or 'a namespace'})"
            "; pass --into a folder with another name, such as my_domains"
        )
    return Placement(into, package, project)


def register(place: Placement, name: str, cls: str) -> None:
    """Add domain `name` (class `cls`) to the placement's pyproject.toml, writing it (and the
    package's `__init__.py`) first where new; nothing for a package of another project."""
    if place.project is None:
        return
    if not place.project.exists():
        place.into.mkdir(parents=True, exist_ok=True)
        if not (place.into / "__init__.py").exists():
            (place.into / "__init__.py").write_text(PACKAGE_INIT, encoding="utf-8")
        project = re.sub(r"[^A-Za-z0-9.]+", "-", place.package).strip("-") or "domains"
        text = PYPROJECT.format(folder=place.into, package=place.package, project=project)
        place.project.write_text(text, encoding="utf-8")
    text = place.project.read_text(encoding="utf-8").rstrip("\n")
    line = entry(name, place.package, cls)
    place.project.write_text(f"{text}\n{line}\n", encoding="utf-8")
