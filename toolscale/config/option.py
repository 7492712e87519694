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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass
from pathlib import Path
from typing import Any, TypeVar

from toolscale.core.errors import ConfigError

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


@dataclass(frozen=True)
class Extra:
    """A command's option that is not a field of its config (a value the command turns into
    fields, such as generate's reward weights): declared once, here, for the flag and the API."""

    name: str
    type: Any
    default: Any
    help: str


def options_of(
    config: type, given: Mapping[str, Any], command: str, extra: Sequence[Extra] = ()
) -> dict[str, Any]:
    """The value of every flag of `config` and of `extra`: `given` (keywords named as the flags,
    underscores for dashes, with the values the command line takes), else the default. An
    unknown keyword is a ConfigError naming the command's --help."""
    values = {d.flag: d.default for d in declared(config)} | {e.name: e.default for e in extra}
    unknown = sorted(set(given) - set(values))
    if unknown:
        raise ConfigError(
            f"unknown option {unknown[0]!r} for {command}; the options are the flags of "
            f"toolscale {command} --help, with underscores for dashes"
        )
    return values | dict(given)


def from_options(config: type[T], given: Mapping[str, Any], command: str) -> T:
    """`config` from keyword options named as the command's flags (`options_of`); a text where
    the option is a path becomes a Path, and an `out` option is required."""
    values = options_of(config, given, command)
    paths = {d.flag for d in declared(config) if d.type in (Path, Path | None)}
    values |= {k: Path(v) for k, v in values.items() if k in paths and isinstance(v, str)}
    if "out" in values and values["out"] is None:
        raise ConfigError("--out is required (on the command line or in --config)")
    return from_flags(config, values)
