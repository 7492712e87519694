"""Refuse to run model-written code below full isolation, unless the run accepted a weaker level.

Code a model wrote (an LLM teacher's or a policy's `code_executor` programs) runs only where
bubblewrap works (`bwrap`, docs/sandbox.md), or at a weaker level the run named explicitly
(`--isolation unshare` or `--isolation rlimits`): without it, `check_isolation` raises a
ConfigError whose one line names the level found, why bubblewrap is not usable, how to install
it and the opt-in. It is called before anything is written by every command that lets a model
write code: `generate` and `synthesize` with an LLM teacher, and the trainer's `evaluate` (with a
model) and `grpo`. The reference teacher plays our own gold programs, which may run at any level.

A domain's tools that run code they are given declare it in `Toolkit.code_tools`; a domain with
none never reaches the code sandbox, so no check is needed for it.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolscale.core.contract import Toolkit
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.sandbox.isolation import LEVELS, isolation_level, problem

INSTALL = "apt-get install bubblewrap"


def exposed(level: str) -> str:
    """What a hostile program can do at `level` (as `isolation_level()` writes it) that bwrap
    stops (measured: tests/sandbox/test_fallback_hostile.py; the table in docs/sandbox.md)."""
    if level.endswith("+uid"):
        files = "a program sees the host's files: it reads the world-readable ones and fills "
        found = files + "world-writable folders such as the shared /tmp"
    else:
        found = "a program can read, write and delete the host's files as you and fork unbounded"
    if level.startswith("rlimits"):
        found += ", and reach the network and the host's processes"
    return found


def check_level_name(accepted: str) -> None:
    """`accepted` (the `--isolation` value) names a level."""
    if accepted not in LEVELS:
        raise ConfigError(f"--isolation must be one of {', '.join(LEVELS)} (got {accepted!r})")


def code_tools(domains: Iterable[str]) -> list[str]:
    """The tools of `domains` that run code their caller wrote, as "domain/tool"."""
    return [
        f"{name}/{tool}"
        for name in dict.fromkeys(domains)
        for tool in _declared(get_domain(name).toolkit)
    ]


def _declared(toolkit: type[Toolkit]) -> list[str]:
    """`code_tools` of the toolkit and of every mixin it is made of."""
    found = (t for cls in toolkit.__mro__ for t in vars(cls).get("code_tools", ()))
    return list(dict.fromkeys(found))


def refusal(accepted: str, found: str | None = None) -> str | None:
    """Why model-written code may not run here with `--isolation accepted` (None: it may);
    `found` is the level as `isolation_level()` writes it (default: this machine's)."""
    check_level_name(accepted)
    found = found or isolation_level()
    level = found.removesuffix("+uid")
    if LEVELS.index(level) <= LEVELS.index(accepted):
        return None
    why = problem("bwrap") or "its level forced by TOOLSCALE_SANDBOX_LEVEL"
    return (
        f"model-written code would run at isolation level {found!r}, because bubblewrap is not "
        f"usable here ({why}), and there {exposed(found)}; install bubblewrap (`{INSTALL}`; in a "
        "container, allow it a user namespace: docs/sandbox.md), or accept the weaker level "
        f"with --isolation {level}"
    )


def check_isolation(accepted: str, domains: Iterable[str], model_writes_code: bool) -> None:
    """Raise ConfigError when a model would write code for `domains` (see the module
    docstring) at a level weaker than `accepted`; probes the sandbox only when one would."""
    check_level_name(accepted)
    if not model_writes_code or not code_tools(domains):
        return
    refused = refusal(accepted)
    if refused is not None:
        raise ConfigError(refused)


def isolation_warning(domains: Iterable[str], model_writes_code: bool) -> str | None:
    """For run.json and the card: that model-written code ran below full isolation (which only
    an explicit `--isolation` allows), else None."""
    tools = code_tools(domains) if model_writes_code else []
    if not tools or isolation_level().startswith("bwrap"):
        return None
    return (
        f"model-written code ({', '.join(tools)}) ran at the weaker isolation level "
        f"{isolation_level()!r}, accepted with --isolation, where {exposed(isolation_level())} "
        "(docs/sandbox.md)"
    )
