"""Load a tau2-format domain: its toolkit, database, policy and default task file.

Two sources: a domain registered in tau2 itself (`tau2:retail`: its `environment.py`'s
`get_environment`, as tau2's registry calls it), or a tau2-format folder (`tau2:PATH`: the
ToolScale environments of the ToolOrchestra repository, `data_model.py` and `tools.py` written
as modules of `tau2.domains.<folder name>`). A folder's database and policy are found beside
its code, else in the `data/tau2/domains/<name>/` folder of an enclosing checkout (where the
ToolOrchestra repository keeps them), else under `$REPO_PATH/evaluation/data_dir/tau2/domains/`
(where its `get_environment` reads them). Only the agent's tools are adapted; user tools are
left out (tasks that need them are refused in `taskfile.check_supported`). A folder domain's
clock is frozen at NOW (`freeze_clock`), so tools that stamp writes with the time replay alike.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError
from toolscale.tau2 import source
from toolscale.tau2.spec import Spec

DB_FILES = ("db.json", "db.toml", "db.yaml", "db.yml")
POLICY_FILES = ("policy.md", "main_policy.md")


@dataclass(frozen=True)
class LoadedDomain:
    """A tau2 domain ready to adapt. `make_env(state)` builds a tau2 Environment on a database
    validated from `state` (a `db.model_dump(mode="json")`, or its JSON text), as tau2 builds
    its environments."""

    short: str
    make_env: Callable[[dict[str, Any] | str], Any]
    policy: str
    world: dict[str, Any]
    files: tuple[Path, ...]  # what the domain's version hashes
    task_file: Path | None  # its own tasks, when it ships some
    env: Any  # an environment on the world, built while loading (its tools give the schemas)


def _version_files(folder: Path, extra: list[Path]) -> tuple[Path, ...]:
    return tuple(sorted(folder.glob("*.py"))) + tuple(extra)


def validated(db_class: Any, state: dict[str, Any] | str) -> Any:
    """The database from a dumped state, or from its JSON text directly."""
    if isinstance(state, str):
        return db_class.model_validate_json(state)
    return db_class.model_validate(state)


def dump(db: Any) -> dict[str, Any]:
    return db.model_dump(mode="json", by_alias=True)


def _registered(name: str) -> LoadedDomain:
    package = source.ensure()
    if not (package / "domains" / name / "environment.py").is_file():
        known = sorted(
            p.name for p in (package / "domains").iterdir() if (p / "environment.py").is_file()
        )
        raise ConfigError(
            f"tau2 has no domain {name!r} (it has: {', '.join(known)}); for a domain folder "
            "write tau2:/path/to/folder"
        )
    module = source.import_module(f"domains.{name}.environment")
    try:
        env = module.get_environment()
    except FileNotFoundError as exc:
        raise ConfigError(
            f"tau2:{name}: {exc.filename} is missing from the tau2 checkout (a large file the "
            "clone left out?); fetch it or set TAU2_DATA_DIR"
        ) from None
    db_class = type(env.tools.db)

    def make_env(state: dict[str, Any] | str) -> Any:
        return module.get_environment(db=validated(db_class, state))

    data = source.data_dir() / "tau2" / "domains" / name
    task_file = data / "tasks.json"
    extra = [p for p in (data / f for f in (*DB_FILES, *POLICY_FILES)) if p.is_file()]
    return LoadedDomain(
        name,
        make_env,
        env.policy,
        dump(env.tools.db),
        _version_files(package / "domains" / name, extra),
        task_file if task_file.is_file() else None,
        env,
    )


def _data_folder(folder: Path, name: str) -> Path:
    candidates = [folder]
    candidates += [parent / "data" / "tau2" / "domains" / name for parent in folder.parents]
    if os.environ.get("REPO_PATH"):
        repo = Path(os.environ["REPO_PATH"])
        candidates.append(repo / "evaluation" / "data_dir" / "tau2" / "domains" / name)
    for candidate in candidates:
        if any((candidate / f).is_file() for f in DB_FILES):
            return candidate
    raise ConfigError(
        f"tau2:{folder}: no database ({' or '.join(DB_FILES)}) beside the code nor in a "
        f"data/tau2/domains/{name}/ folder above it; copy db.json and policy.md into {folder}"
    )


def _package(folder: Path, name: str) -> str:
    """Make `folder` importable as `tau2.domains.<name>` (how its modules import each other)."""
    module_name = f"tau2.domains.{name}"
    package = source.ensure()
    if (package / "domains" / name).is_dir():
        raise ConfigError(
            f"tau2:{folder}: the folder name {name!r} is a domain of tau2 itself; use "
            f"tau2:{name}, or rename the folder"
        )
    source.import_module("domains")
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        if [str(folder)] != list(getattr(loaded, "__path__", [])):
            raise ConfigError(f"two tau2 domain folders named {name!r} in one run")
        return module_name
    init = folder / "__init__.py"
    if init.is_file():
        spec = importlib.util.spec_from_file_location(
            module_name, init, submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    else:  # most ToolScale environments have no __init__.py
        module = types.ModuleType(module_name)
        module.__path__ = [str(folder)]
        module.__package__ = module_name
        sys.modules[module_name] = module
    return module_name


NOW = dt.datetime(2025, 10, 1, 12, 0, 0)


class FrozenDatetime(dt.datetime):
    """`datetime` whose clock stands still at NOW: a tool that stamps a write with the current
    time (bank and weather do) leaves the same state on every replay, so the gold hash, the
    grounding replay and tau2's own replay agree."""

    @classmethod
    def now(cls, tz: dt.tzinfo | None = None) -> FrozenDatetime:
        value = cls.fromisoformat(NOW.isoformat())
        return value if tz is None else value.replace(tzinfo=dt.UTC).astimezone(tz)

    @classmethod
    def utcnow(cls) -> FrozenDatetime:
        return cls.fromisoformat(NOW.isoformat())

    @classmethod
    def today(cls) -> FrozenDatetime:
        return cls.utcnow()


def freeze_clock(module: types.ModuleType) -> None:
    """Give a domain module that imported `datetime` from `datetime` the frozen one."""
    if getattr(module, "datetime", None) is dt.datetime:
        module.datetime = FrozenDatetime  # type: ignore[attr-defined]


def _one(classes: list[type], what: str, where: str) -> type:
    if len(classes) != 1:
        found = ", ".join(c.__name__ for c in classes) or "none"
        raise ConfigError(f"{where} must define exactly one {what} (found: {found})")
    return classes[0]


def _defined(module: types.ModuleType, base: type) -> list[type]:
    return [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, base) and c.__module__ == module.__name__
    ]


def _folder(folder: Path) -> LoadedDomain:
    missing = [f for f in ("data_model.py", "tools.py") if not (folder / f).is_file()]
    if not folder.is_dir() or missing:
        what = "does not exist" if not folder.is_dir() else f"has no {' or '.join(missing)}"
        raise ConfigError(
            f"tau2:{folder} is not a tau2 domain folder: it {what} (a tau2 domain folder holds "
            "data_model.py and tools.py)"
        )
    name = folder.name
    module_name = _package(folder, name)
    toolkit_base = source.import_module("environment.toolkit").ToolKitBase
    db_base = source.import_module("environment.db").DB
    environment = source.import_module("environment.environment").Environment
    try:
        tools = importlib.import_module(f"{module_name}.tools")
        data_model = importlib.import_module(f"{module_name}.data_model")
    except ModuleNotFoundError as exc:
        raise ConfigError(f"tau2:{folder}: its code imports {exc.name!r}, not found") from None
    for module in (tools, data_model):
        freeze_clock(module)
    toolkit = _one(_defined(tools, toolkit_base), "tau2 ToolKitBase subclass", f"{folder}/tools.py")
    hinted = typing.get_type_hints(toolkit).get("db")
    db_class: Any = (  # a tau2 DB subclass, imported at run time
        hinted
        if inspect.isclass(hinted) and issubclass(hinted, db_base)
        else _one(_defined(data_model, db_base), "tau2 DB subclass", f"{folder}/data_model.py")
    )
    data = _data_folder(folder, name)
    db_file = next(data / f for f in DB_FILES if (data / f).is_file())
    policy_file = next((data / f for f in POLICY_FILES if (data / f).is_file()), None)
    if policy_file is None:
        raise ConfigError(f"tau2:{folder}: no policy.md beside its database in {data}")
    policy = policy_file.read_text(encoding="utf-8")

    def make_env(state: dict[str, Any] | str) -> Any:
        return environment(
            domain_name=name, policy=policy, tools=toolkit(validated(db_class, state))
        )

    db = db_class.load(str(db_file))
    task_file = next((p for p in (folder / "tasks.json", data / "tasks.json") if p.is_file()), None)
    return LoadedDomain(
        name,
        make_env,
        policy,
        dump(db),
        _version_files(folder, [db_file, policy_file]),
        task_file,
        environment(domain_name=name, policy=policy, tools=toolkit(db)),
    )


def load(spec: Spec) -> LoadedDomain:
    return _folder(Path(spec.ref)) if spec.is_path else _registered(spec.ref)


def version(files: tuple[Path, ...], task_file: Path | None) -> str:
    """`tau2-<hash>`: the content of the domain's code, database, policy and task file."""
    digest = hashlib.sha256()
    for path in (*files, *([task_file] if task_file else [])):
        digest.update(path.name.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"tau2-{digest.hexdigest()[:12]}"
