"""Run the tasks of `toolscale export --format tau2` in tau2-bench, with tau2's own CLI.

    python -m toolscale.tau2.bench EXPORT_DIR run --domain bank --agent-llm MODEL --user-llm MODEL

Each folder of EXPORT_DIR (one per stateful domain, `toolscale.publish.tau2_export`) becomes a
tau2 domain of its folder's name: a tau2 `Environment` over the folder's `db.json`, whose tools
are the installed toolscale domain's (the same code, schemas and errors), and the folder's
`tasks.json` as its task set. Then everything after EXPORT_DIR is tau2's command line (`tau2 run
...`, `tau2 view`, ...), so tau2's agents, user simulator, evaluator and results files are used
unchanged; tau2 evaluates a task by its reward basis (DB: gold actions replayed on a fresh
database, hashes compared; COMMUNICATE: the required facts in the agent's messages).

A call runs as tau2 runs its own tools: an error the toolscale tool raises (a ToolError, or
arguments its schema refuses) reaches tau2 as an exception, which tau2 answers with
`Error: <message>`. The database after each call is the toolscale toolkit's state, so tau2's
`get_db_hash` hashes exactly what toolscale's state hash covers.

Needs tau2-bench's source (`TOOLSCALE_TAU2_SRC`, `toolscale.tau2.source`) and its dependencies
(`pip install 'toolscale[tau2]'`). This module writes nothing; tau2 writes its results where it
always does (its data folder's `simulations/`).
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolscale.core.contract import ToolError, ToolKind, Toolkit, tool_text
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain
from toolscale.sandbox.execute import argument_errors
from toolscale.tau2 import source

ABOUT = "toolscale.json"  # what tau2_export writes beside db.json: the toolscale domain's name
USAGE = "usage: python -m toolscale.tau2.bench EXPORT_DIR run --domain NAME [tau2 run options]"


def folders(root: Path) -> dict[str, Path]:
    """The exported domain folders under `root`, by the tau2 domain name they get."""
    if not root.is_dir():
        raise ConfigError(
            f"{root} is not a folder; give the DEST of toolscale export --format tau2"
        )
    found = {p.parent.name: p.parent for p in sorted(root.glob(f"*/{ABOUT}"))}
    if not found:
        raise ConfigError(
            f"{root} holds no exported domain (no */{ABOUT}); write one with toolscale export "
            "OUT DEST --format tau2"
        )
    return found


def _toolkit_class(kit: type[Toolkit], db_class: Any) -> type:
    """A tau2 `ToolKitBase` whose tools are `kit`'s, with `kit`'s schemas and kinds."""
    toolkit_module = source.import_module("environment.toolkit")
    tool_module = source.import_module("environment.tool")
    kinds = {
        ToolKind.READ: toolkit_module.ToolType.READ,
        ToolKind.WRITE: toolkit_module.ToolType.WRITE,
    }
    schemas = {s["function"]["name"]: s for s in kit.schemas()}

    class SchemaTool(tool_module.Tool):  # type: ignore[name-defined]
        """tau2's Tool, showing the agent the toolscale schema as it is."""

        @property
        def openai_schema(self) -> dict[str, Any]:
            return schemas[self.name]

    def method(name: str) -> Callable[..., str]:
        def call(self: Any, **arguments: Any) -> str:
            return self.toolscale_call(name, arguments)

        own = inspect.signature(getattr(kit, name))
        call.__name__ = name
        call.__doc__ = getattr(kit, name).__doc__
        call.__signature__ = own.replace(  # type: ignore[attr-defined]
            parameters=[
                p.replace(annotation=inspect.Parameter.empty) for p in own.parameters.values()
            ],
            return_annotation=str,
        )
        kind = kinds.get(kit.specs()[name].kind, toolkit_module.ToolType.GENERIC)
        return toolkit_module.is_tool(kind)(call)

    def __init__(self: Any, db: Any) -> None:
        toolkit_module.ToolKitBase.__init__(self, db)
        self._kit = None
        self._kit_db = None

    def toolscale_call(self: Any, name: str, arguments: dict[str, Any]) -> str:
        if self._kit is None or self._kit_db is not self.db:  # tau2's update_db makes a new db
            self._kit = kit.opened(json.dumps(self.db.model_dump()), json.loads)
        problems = argument_errors(kit, name, arguments)
        if problems:
            raise ValueError(f"invalid arguments for {name}: {'; '.join(problems)}")
        try:
            return tool_text(getattr(self._kit, name)(**arguments))
        except ToolError as exc:  # the model's mistake: tau2 answers "Error: <message>"
            raise ValueError(str(exc)) from None
        finally:
            self.db = self._kit_db = db_class.model_validate(self._kit.state)

    def get_tools(self: Any, include: list[str] | None = None) -> dict[str, Any]:
        tools = {name: SchemaTool(getattr(self, name)) for name in self.tools}
        return {n: t for n, t in tools.items() if include is None or n in include}

    attrs: dict[str, Any] = {name: method(name) for name in kit.specs()}
    attrs.update(__init__=__init__, toolscale_call=toolscale_call, get_tools=get_tools)
    return type(f"{kit.__name__}Tau2", (toolkit_module.ToolKitBase,), attrs)


def domain(name: str, folder: Path) -> tuple[Callable[..., Any], Callable[..., list[Any]]]:
    """tau2's two factories for one exported folder: its environment and its task loader."""
    about = json.loads((folder / ABOUT).read_text(encoding="utf-8"))
    built = get_domain(about["domain"])
    if built.version != about["domain_version"]:
        raise ConfigError(
            f"{folder} was exported from {about['domain']} version {about['domain_version']}; "
            f"the installed one is {built.version}: export the tasks again"
        )
    db_module = source.import_module("environment.db")
    pydantic = sys.modules["pydantic"]

    class ToolscaleDB(db_module.DB):  # type: ignore[name-defined]
        """A toolscale domain's state, its top-level keys as they are."""

        model_config = pydantic.ConfigDict(extra="allow")

    toolkit = _toolkit_class(built.toolkit, ToolscaleDB)
    environment_module = source.import_module("environment.environment")
    tasks_module = source.import_module("data_model.tasks")
    world = (folder / "db.json").read_text(encoding="utf-8")
    policy = (folder / "policy.md").read_text(encoding="utf-8")

    def get_environment(solo_mode: bool = False) -> Any:
        db = ToolscaleDB.model_validate(json.loads(world))  # a fresh database each time
        return environment_module.Environment(
            domain_name=name, policy=policy, tools=toolkit(db), solo_mode=solo_mode
        )

    def get_tasks(task_split_name: str | None = None) -> list[Any]:
        if task_split_name not in (None, "base"):
            raise ValueError(f"{folder} has one task set, 'base', not {task_split_name!r}")
        items = json.loads((folder / "tasks.json").read_text(encoding="utf-8"))
        return [tasks_module.Task.model_validate(item) for item in items]

    return get_environment, get_tasks


def register(root: Path) -> list[str]:
    """Register every exported folder under `root` with tau2's registry; their names."""
    registry = source.import_module("registry").registry
    names = folders(root)
    taken = set(registry.get_domains()) & set(names)
    if taken:
        raise ConfigError(
            f"tau2 has its own domain {sorted(taken)[0]!r}; rename that folder of {root}"
        )
    for name, folder in names.items():
        get_environment, get_tasks = domain(name, folder)
        registry.register_domain(get_environment, name)
        registry.register_tasks(get_tasks, name)
    return list(names)


def main(argv: list[str] | None = None) -> int:
    """`python -m toolscale.tau2.bench EXPORT_DIR TAU2_ARGS...`: register, then run tau2's CLI."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        register(Path(args[0]))
        cli = source.import_module("cli")
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.argv = ["tau2", *args[1:]]
    cli.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
