"""`toolscale new-domain NAME`: write a small declared stateful domain that passes check-domain.

The domain is named NAME (`NameDomain`, `NameTools`) and holds NAME's own records: a person, a
thing and the person's holding of a thing (`RECORDS`: a library's members, books and loans; a
shop's customers, products and orders; `Records.generic` for a name it does not know). It is
written in restaurant's dialect (only what differs from the kit's defaults) in the six files
every kit v2 domain has (docs/kit.md lists them; the texts are `toolscale.kit.scaffold_text`):
a world, rules (a refusal and a hand-off), tools (finders, a lister, a WRITE raising both
rules), invariants, policy.md and the goals; plus a test that runs check-domain --strict on it,
written where the project's pytest collects it. Every tool is in some gold path, so
`toolscale check-domain NAME --strict` and the test pass as written; replace the records with
your domain's one piece at a time, keeping both passing.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from toolscale.core.errors import ConfigError
from toolscale.kit import scaffold_text
from toolscale.kit.packaging import Placement, placement, register


@dataclass(frozen=True)
class Records:
    """A domain's records in words: who calls (`person`), what they hold (`holding`) of which
    `thing`, and the verb of the one change they ask for (`verb`, `past`)."""

    person: str
    thing: str
    holding: str
    verb: str
    past: str

    @staticmethod
    def generic() -> Records:
        return Records("customer", "item", "booking", "cancel", "cancelled")


RECORDS = {
    "library": Records("member", "book", "loan", "renew", "renewed"),
    "shop": Records("customer", "product", "order", "cancel", "cancelled"),
    "store": Records("customer", "product", "order", "cancel", "cancelled"),
    "hotel": Records("guest", "room", "booking", "cancel", "cancelled"),
    "gym": Records("member", "course", "enrolment", "pause", "paused"),
    "help_desk": Records("customer", "product", "ticket", "close", "closed"),
    "garage": Records("customer", "car", "repair", "cancel", "cancelled"),
    "rental": Records("customer", "vehicle", "rental", "extend", "extended"),
}


TEST = '''"""The {name} domain passes every check of `toolscale check-domain --strict`.

{about}
"""

from __future__ import annotations

import os

import pytest

from toolscale.check.check_domain import CheckDomainConfig, check_domain


def test_the_{name}_domain_passes_check_domain_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    # Installed as an entry point, or named here (sandbox workers inherit the variable).
    entry = "{name}={module}:{cls}"
    known = os.environ.get("TOOLSCALE_DOMAINS", "")
    if entry not in known:
        monkeypatch.setenv("TOOLSCALE_DOMAINS", f"{{known}},{{entry}}" if known else entry)
    report = check_domain("{name}", CheckDomainConfig(tasks=40, strict=True, fuzz=8))
    assert report.lines() == []
'''
KIT_ABOUT = (
    "Run it with pytest on this folder; keep it passing while you change the domain (docs/kit.md)."
)


def domain_test(name: str, cls: str, module: str, about: str = KIT_ABOUT) -> str:
    """The text of a domain folder's test: `check-domain --strict` on the domain `module:cls`
    (registered through TOOLSCALE_DOMAINS unless installed), with `about` under its title."""
    return TEST.format(name=name, cls=cls, module=module, about=about)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def class_name(name: str) -> str:
    return camel(name) + "Domain"


def _test_folder(place: Placement, folder: Path) -> Path:
    """Where the domain's test goes: beside it in a package new-domain made (pytest DIR finds
    it), else in the tests/ of the project holding the package (its pytest's testpaths; tests/
    domains/ when there is one), else beside it."""
    if place.project is not None:
        return folder
    roots = (p for p in place.into.parents if (p / "pyproject.toml").is_file())
    root = next(roots, None)
    if root is None or not (root / "tests").is_dir():
        return folder
    return root / "tests" / "domains" if (root / "tests" / "domains").is_dir() else root / "tests"


def texts(name: str, package: str) -> dict[str, str]:
    """The domain's files by name: `scaffold_text`'s templates filled for domain `name`."""
    words = RECORDS.get(name, Records.generic())
    fill = {
        **words.__dict__,
        "name": name,
        "spoken": name.replace("_", " "),
        "title": name.replace("_", " ").capitalize(),
        "cls": class_name(name),
        "cls_tools": camel(name) + "Tools",
        "Verb": words.verb.capitalize(),
        "P": words.person[0].upper(),
        "T": words.thing[0].upper(),
        "H": words.holding[0].upper() + "X",
    }
    files = {
        "__init__.py": scaffold_text.INIT,
        "rules.py": scaffold_text.RULES,
        "tools.py": scaffold_text.TOOLS,
        "world.py": scaffold_text.WORLD,
        "invariants.py": scaffold_text.INVARIANTS,
        "policy.md": scaffold_text.POLICY,
    }
    return {
        file: text.format(**fill).replace("domains_pkg", package) for file, text in files.items()
    }


def default_into() -> Path:
    """Where `new-domain` writes without --into: ./domains in a toolscale checkout (a package
    there), else ./my_domains."""
    return Path("domains") if Path("domains/__init__.py").is_file() else Path("my_domains")


def new_domain(name: str, into: Path | str | None = None) -> list[Path]:
    """Write domain `name` into `into/NAME`; returns the files written. A new or empty `into`
    becomes an installable package (its own pyproject.toml, with the domain's entry point in the
    `toolscale.domains` group; its import name is the folder's name), one written so before gets
    the new entry point too, and a package folder of another project (one with `__init__.py`,
    such as toolscale's own `domains/`) gets the domain alone; None: `default_into()`.
    ConfigError for a bad name, a domain folder that exists, or a folder that is none of
    these."""
    into = default_into() if into is None else Path(into)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ConfigError(
            f"domain name {name!r} must be a lower-case Python identifier, such as 'library'"
        )
    folder = into / name
    if folder.exists():
        raise ConfigError(f"{folder} already exists; choose another name or remove it")
    place = placement(into)
    test = _test_folder(place, place.into / name) / f"test_{name}.py"
    if test.exists():
        raise ConfigError(f"{test} already exists; choose another name or remove it")
    files = texts(name, place.package)
    register(place, name, class_name(name))
    folder.mkdir()
    written = []
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")
        written.append(folder / file)
    test.parent.mkdir(parents=True, exist_ok=True)
    test.write_text(domain_test(name, class_name(name), f"{place.package}.{name}"), "utf-8")
    return [*written, test]
