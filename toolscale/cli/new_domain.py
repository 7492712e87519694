"""`toolscale new-domain`: write the domain (`toolscale.kit.scaffold.new_domain`), then say how to
register, check and test it, in commands that work as printed from any folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toolscale.cli.progress import console, fail
from toolscale.core.errors import ConfigError

INTO_HELP = (
    "Where to write DIR/NAME: a new or empty folder becomes an installable package (its "
    "pyproject.toml registers the domain; pip install -e DIR), a folder new-domain made before "
    "gets one more domain, a package folder of another project gets the domain alone. Default: "
    "./domains when it is a package (a toolscale checkout), else ./my_domains."
)


def _say(line: str) -> None:
    console.print(line, highlight=False, markup=False, soft_wrap=True)


def _project_of(folder: Path) -> Path | None:
    """The pyproject.toml of the project holding the package `folder`, if any."""
    found = (p / "pyproject.toml" for p in folder.parents if (p / "pyproject.toml").is_file())
    return next(found, None)


def new_domain_command(
    name: Annotated[str, typer.Argument(help="The new domain's name, e.g. library.")],
    into: Annotated[Path | None, typer.Option(help=INTO_HELP)] = None,
) -> None:
    """Write a small declared stateful domain (kit v2) that passes check-domain (docs/kit.md)."""
    from toolscale.kit.packaging import entry, placement
    from toolscale.kit.scaffold import class_name, default_into, new_domain

    if into is None:
        into = default_into()
    try:
        written = new_domain(name, into)
    except ConfigError as exc:
        fail(str(exc))
    place = placement(into)
    cls = class_name(name)
    module = f"{place.package}.{name}:{cls}"
    domain = place.into / name
    _say(f"wrote {domain}: {', '.join(p.name for p in written[:-1])}; its test: {written[-1]}")
    python, toolscale = _commands()
    by_variable = (
        f'TOOLSCALE_DOMAINS="{name}={module}" PYTHONPATH={place.into.parent} '
        f"{toolscale} check-domain {name} --strict"
    )
    if place.project is not None:
        _say(f"registered it in {place.project} ({entry(name, place.package, cls)})")
        _say(f"next: {python} -m pip install -e {place.into} pytest")
    else:
        project = _project_of(place.into)
        where = f"in {project}" if project else "in your project's pyproject.toml"
        root = project.parent if project else "."
        _say(
            f'next: register it {where}, under [project.entry-points."toolscale.domains"]: '
            f"{entry(name, place.package, cls)}; then {python} -m pip install -e {root} pytest"
        )
    _say(f"      {toolscale} check-domain {name} --strict")
    _say(f"      {python} -m pytest {written[-1]}")
    _say(f"or, without installing: {by_variable}")


def _commands() -> tuple[str, str]:
    """The Python and the `toolscale` script of the environment running this command, so the
    printed commands work as printed (a README user's `.venv/bin/...`, no activated venv, and
    pytest installed with the domain: the first command installs none)."""
    script = Path(sys.executable).parent / "toolscale"
    return sys.executable, str(script) if script.is_file() else "toolscale"
