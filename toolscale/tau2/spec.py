"""Domain names of tau2-format domains: parse, canonicalise, and turn into file-safe names.

A tau2 domain is named by its spec, which is also its toolscale domain name (so the sandbox
workers, `validate`, `export` and the trainer find it from a row's `domain` alone):

    tau2:retail                         a domain registered in the importable tau2 (airline, ...)
    tau2:/abs/path/to/bank              a tau2-format domain folder (data_model.py, tools.py)
    tau2:retail?split=test              only the tasks of one split of its task file
    tau2:/abs/bank?tasks=/abs/t.json    tasks from a tau2 task file or ToolScale rows

A relative path becomes absolute; options are sorted. This module needs no tau2.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode

from toolscale.core.errors import ConfigError

PREFIX = "tau2:"
OPTIONS = ("split", "tasks")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SAFE = re.compile(r"^[A-Za-z0-9_.]+$")


@dataclass(frozen=True)
class Spec:
    """A parsed spec: `ref` is a registered domain name or an absolute folder path."""

    ref: str
    split: str | None = None
    tasks: str | None = None

    @property
    def is_path(self) -> bool:
        return self.ref.startswith("/")

    @property
    def short(self) -> str:
        """The tau2 domain's own name (the folder's name for a path)."""
        return Path(self.ref).name if self.is_path else self.ref

    @property
    def name(self) -> str:
        """The canonical toolscale domain name."""
        options = {k: v for k, v in (("split", self.split), ("tasks", self.tasks)) if v}
        query = f"?{urlencode(options, quote_via=quote, safe='/')}" if options else ""
        return f"{PREFIX}{self.ref}{query}"


def is_spec(name: str) -> bool:
    return name.startswith(PREFIX)


def parse(name: str) -> Spec:
    """The Spec of `tau2:...` text (relative paths made absolute); ConfigError when malformed."""
    if not is_spec(name):
        raise ConfigError(f"{name!r} is not a tau2 domain spec; write tau2:NAME or tau2:PATH")
    body = name[len(PREFIX) :].strip()
    ref, _, query = body.partition("?")
    if not ref:
        raise ConfigError(f"{name!r} names no domain; write e.g. tau2:retail or tau2:/path/bank")
    options = dict(parse_qsl(query, keep_blank_values=True)) if query else {}
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"{name!r}: unknown option {unknown[0]!r}; a tau2 spec takes ?split=S and ?tasks=FILE"
        )
    if "/" in ref or ref.startswith("."):
        ref = str(Path(ref).expanduser().resolve())
    elif not _NAME.match(ref):
        raise ConfigError(
            f"{name!r}: {ref!r} is neither a tau2 domain name nor a folder path "
            "(write ./NAME for a folder in the current directory)"
        )
    tasks = options.get("tasks") or None
    if tasks is not None:
        tasks = str(Path(tasks).expanduser().resolve())
    return Spec(ref, options.get("split") or None, tasks)


def canonical(name: str) -> str:
    return parse(name).name


def with_options(name: str, split: str | None, tasks: str | None) -> str:
    """`name` with `--split` / `--tau2-tasks` applied (a spec's own option wins if it has one)."""
    spec = parse(name)
    if tasks is not None:
        tasks = str(Path(tasks).expanduser().resolve())
    return Spec(spec.ref, spec.split or split, spec.tasks or tasks).name


def file_safe(name: str) -> str:
    """A name usable in a file name: itself when it is one already (every built-in domain),
    else its safe characters and a short hash of the whole, so two names never collide."""
    if _SAFE.match(name):
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    cleaned = re.sub(r"[^A-Za-z0-9_.]+", "_", name).strip("_.")
    return f"{cleaned[-48:].strip('_.')}_{digest}"


def apply_options(domains: str, split: str | None, tasks: str | None) -> list[str]:
    """`--domains` text as a list, with `--split` / `--tau2-tasks` applied to its tau2 specs
    (ConfigError when they are given but no tau2 domain is named)."""
    names = [d.strip() for d in domains.split(",")] if domains.strip() != "all" else ["all"]
    if split is None and tasks is None:
        return names
    if not any(is_spec(n) for n in names):
        raise ConfigError("--split and --tau2-tasks apply to tau2 domains; name one in --domains")
    return [with_options(n, split, tasks) if is_spec(n) else n for n in names]
