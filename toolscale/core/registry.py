"""Find domain plugins through the `toolscale.domains` entry-point group.

Only the domains a run names are imported, so one broken plugin does not break the others.
For development without packaging, `TOOLSCALE_DOMAINS="name=module:Class,..."` adds domains
(sandbox workers inherit it, so they find the same domains). A name `PREFIX:REST` is a domain
built from its name alone by the source registered for PREFIX in the `toolscale.domain_sources`
entry-point group (`tau2:` is toolscale.tau2's: tau2-format domains), wherever it is needed.
"""

from __future__ import annotations

import os
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from toolscale.core.contract import Domain
from toolscale.core.errors import ConfigError

GROUP = "toolscale.domains"
SOURCES = "toolscale.domain_sources"


class DomainSource(Protocol):
    """Builds domains named `PREFIX:REST` (e.g. `tau2:retail`) from their names alone."""

    def canonical(self, name: str) -> str:
        """The one name of the domain `name` spells (what rows and run.json record)."""
        ...

    def get(self, name: str) -> Domain:
        """The domain named `name` (ConfigError when it cannot be built)."""
        ...


@cache
def source(name: str) -> DomainSource | None:
    """The source of a `PREFIX:...` name, or None for a plain domain name."""
    prefix, sep, _ = name.partition(":")
    if not sep:
        return None
    found = {ep.name: ep for ep in entry_points(group=SOURCES)}
    if prefix not in found:
        raise ConfigError(
            f"unknown domain {name!r}: no domain source is installed for {prefix}:; "
            f"installed sources: {', '.join(sorted(found)) or 'none'}"
        )
    loaded: DomainSource = found[prefix].load()()
    return loaded


def _extra() -> list[EntryPoint]:
    extra = []
    for item in filter(None, os.environ.get("TOOLSCALE_DOMAINS", "").split(",")):
        name, sep, value = item.partition("=")
        if not sep or ":" not in value:
            raise ConfigError(f"TOOLSCALE_DOMAINS entry {item!r} must look like name=module:Class")
        extra.append(EntryPoint(name.strip(), value.strip(), GROUP))
    return extra


@cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in [*entry_points(group=GROUP), *_extra()]:
        if ep.name in found and found[ep.name].value != ep.value:
            raise ConfigError(
                f"domain {ep.name!r} is registered twice ({found[ep.name].value} and {ep.value}); "
                "uninstall one of the two packages"
            )
        found[ep.name] = ep
    return dict(sorted(found.items()))


def names() -> list[str]:
    """The names of every installed domain, without importing them."""
    return list(_entry_points())


def module_of(name: str) -> str | None:
    """The module a domain name's entry point loads, without importing it (None for an unknown
    name or one a domain source builds)."""
    found = _entry_points().get(name)
    return found.module if found is not None else None


@cache
def domain_class(name: str) -> type[Domain]:
    eps = _entry_points()
    if name not in eps:
        raise ConfigError(
            f"unknown domain {name!r}; installed domains: {', '.join(eps)}; add one of your own "
            f'with TOOLSCALE_DOMAINS="{name}=module:Class" (module importable here; comma-separate '
            "several) or the toolscale.domains entry-point group"
        )
    try:
        cls = eps[name].load()
    except Exception as exc:
        raise ConfigError(f"domain {name!r} ({eps[name].value}) fails to load: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Domain)):
        raise ConfigError(f"entry point {name!r} -> {eps[name].value} is not a toolscale Domain")
    if cls.name != name:
        raise ConfigError(f"entry point {name!r} loads a domain named {cls.name!r}")
    return cls


def registered() -> dict[str, type[Domain]]:
    """Every installed domain class by name (imports them all)."""
    return {name: domain_class(name) for name in names()}


@cache
def get_domain(name: str) -> Domain:
    built_by = source(name)
    return built_by.get(name) if built_by else domain_class(name)()


def resolve(spec: str) -> list[str]:
    """Turn `--domains` text ("all" or "a,b") into a list of installed domain names; a tau2
    spec (`tau2:NAME`, `tau2:PATH`), or another source's, becomes its canonical name. "all"
    means the installed ones."""
    wanted = names() if spec.strip() == "all" else [s.strip() for s in spec.split(",")]
    wanted = [built_by.canonical(n) if (built_by := source(n)) else n for n in wanted if n]
    if not wanted:
        raise ConfigError("--domains is empty; write e.g. --domains railway,math or --domains all")
    if len(set(wanted)) != len(wanted):
        raise ConfigError(f"--domains names a domain twice: {spec}")
    for name in wanted:
        get_domain(name)
    return wanted
