"""Command-line flags derived from the options a run config declares (`toolscale.config.option`).

`flags_of(Config, ...)` gives a command the typer parameters of every option `Config` declares
(its own options first, then those it inherits, the nearest class's first), so an option is
written once, in the config; a command adds only what is not a config field (`--config`, or
flags it turns into other fields). Typer reads the command's `__signature__`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.markup import escape

from toolscale.config.generate import GENERATE_EXTRA
from toolscale.config.option import Extra, declared

F = TypeVar("F", bound=Callable[..., Any])
CONFIG_HELP = "YAML run config holding any of these options."


def flag(name: str, kind: Any, default: Any, help: str) -> inspect.Parameter:
    """One command-line option, `--name` (underscores become dashes). Its help is escaped:
    rich reads "[the proposer's]" as markup and drops it from `--help`."""
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[kind, typer.Option(help=escape(help))],
    )


def argument(name: str, kind: Any, help: str) -> inspect.Parameter:
    """One positional command-line argument."""
    return inspect.Parameter(
        name,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        annotation=Annotated[kind, typer.Argument(help=escape(help))],
    )


def flags_of(
    config: type,
    *,
    extra: Sequence[inspect.Parameter] = (),
    skip: Sequence[str] = (),
    arguments: Sequence[inspect.Parameter] = (),
) -> Callable[[F], F]:
    """Give `command(ctx, **flags)` its positional `arguments`, a `--flag` per option `config`
    declares (except `skip`), then `extra`, then `--config`."""

    def nearness(field: str) -> int:  # 0: `config`'s own field, 1: its base's, ...
        return next(
            i for i, c in enumerate(config.__mro__) if field in vars(c).get("__annotations__", {})
        )

    def decorate(command: F) -> F:
        context = inspect.Parameter(
            "ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context
        )
        options = [d for d in declared(config) if d.flag not in skip]
        options.sort(key=lambda d: nearness(d.field))  # stable: field order within a class
        params = [context, *arguments]
        params += [flag(d.flag, d.type, d.default, d.help) for d in options]
        params += [*extra, flag("config", Path | None, None, CONFIG_HELP)]
        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        return command

    return decorate


def extra_flags(extra: Sequence[Extra]) -> tuple[inspect.Parameter, ...]:
    """The command-line options of a command's `Extra` options."""
    return tuple(flag(e.name, e.type, e.default, e.help) for e in extra)


GENERATE_FLAGS = extra_flags(GENERATE_EXTRA)
