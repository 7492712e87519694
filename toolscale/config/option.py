"""One declaration per option: a config field that carries its command-line help.

A run config (`GenerateConfig`, `SynthesizeConfig`, `TeacherOptions`) declares each option once,
as a dataclass field made by `option(...)`; the command line (`toolscale.cli.options`) derives
its flags from those fields, and `from_flags` builds the config from what the flags hold. A field
declared without `option` (no help) is a library-only setting and gets no flag.

Example:

    @dataclass(frozen=True)
    class Run:
        workers: int = option(2, help="Sandbox worker processes.")

gives `--workers INTEGER  Sandbox worker processes. [default: 2]`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class _Unset:
    """No value given (dataclasses' own MISSING cannot be a field's default)."""


UNSET: Any = _Unset()


@dataclass(frozen=True)
class Flag:
    """How an option reads on the command line when that differs from its field: another flag
    name, another type (text the config parses), another default (the field has none)."""

    help: str
    name: str | None = None  # default: the field's name (request_timeout_s -> --request-timeout)
    type: Any = None  # default: the field's type
    default: Any = UNSET  # default: the field's default
    parse: Callable[[Any], Any] | None = None  # the flag's value -> the field's (ConfigError)


def option(
    default: Any = MISSING,
    *,
    help: str,
    factory: Callable[[], Any] | None = None,
    flag: str | None = None,
    cli_type: Any = None,
    cli_default: Any = UNSET,
    parse: Callable[[Any], Any] | None = None,
) -> Any:
    """A dataclass field that is also a command-line option (see the module docstring)."""
    meta = {"flag": Flag(help, flag, cli_type, cli_default, parse)}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta, kw_only=True)


@dataclass(frozen=True)
class Declared:
    """One option as the command line sees it."""

    field: str
    flag: str
    type: Any
    default: Any
    help: str
    parse: Callable[[Any], Any] | None


def declared(config: type) -> list[Declared]:
    """The options `config` declares, in field order (a subclass's redeclaration wins)."""
    hints = typing.get_type_hints(config)
    found = []
    for f in dataclasses.fields(config):
        flag = f.metadata.get("flag")
        if flag is None:
            continue
        if flag.default is not UNSET:
            default = flag.default
        elif f.default is not MISSING:
            default = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            raise TypeError(f"option {f.name} of {config.__name__} needs a command-line default")
        found.append(
            Declared(
                field=f.name,
                flag=flag.name or f.name,
                type=flag.type if flag.type is not None else hints[f.name],
                default=default,
                help=flag.help,
                parse=flag.parse,
            )
        )
    return found


def from_flags(config: type[T], values: dict[str, Any], **fields: Any) -> T:
    """`config` built from flag values (by flag name; parsed where the option says how), plus
    `fields` given directly (they win)."""
    built = dict(fields)
    for item in declared(config):
        if item.flag not in values or item.field in built:
            continue
        value = values[item.flag]
        built[item.field] = item.parse(value) if item.parse is not None else value
    return config(**built)
