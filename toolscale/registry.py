"""Find domain plugins through the `toolscale.domains` entry-point group."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from toolscale.contract import Domain
from toolscale.errors import ConfigError

GROUP = "toolscale.domains"


@cache
def registered() -> dict[str, type[Domain]]:
    """Every installed domain by name. Two plugins claiming one name is a configuration error."""
    found: dict[str, type[Domain]] = {}
    sources: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        if ep.name in found and sources[ep.name] != ep.value:
            raise ConfigError(
                f"domain {ep.name!r} is registered twice ({sources[ep.name]} and {ep.value}); "
                "uninstall one of the two packages"
            )
        cls = ep.load()
        if not (isinstance(cls, type) and issubclass(cls, Domain)):
            raise ConfigError(f"entry point {ep.name!r} -> {ep.value} is not a toolscale Domain")
        if cls.name != ep.name:
            raise ConfigError(f"entry point {ep.name!r} loads domain named {cls.name!r}")
        found[ep.name] = cls
        sources[ep.name] = ep.value
    return dict(sorted(found.items()))


@cache
def get_domain(name: str) -> Domain:
    domains = registered()
    if name not in domains:
        raise ConfigError(f"unknown domain {name!r}; installed domains: {', '.join(domains)}")
    return domains[name]()


def resolve(spec: str) -> list[str]:
    """Turn `--domains` text ("all" or "a,b") into a list of installed domain names."""
    names = list(registered()) if spec.strip() == "all" else [s.strip() for s in spec.split(",")]
    names = [n for n in names if n]
    if not names:
        raise ConfigError("--domains is empty; write e.g. --domains railway,math or --domains all")
    for name in names:
        get_domain(name)
    if len(set(names)) != len(names):
        raise ConfigError(f"--domains names a domain twice: {spec}")
    return names
