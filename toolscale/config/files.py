"""Run config files: `--config run.yaml` supplies any option of a command; flags override it.

The file is a flat YAML mapping whose keys are the command's option names (`num-tasks` or
`num_tasks`) and whose values are what the flag would take:

    domains: math,knowledge
    num-tasks: 500
    teacher: openai
    base-url: http://localhost:8000/v1   # or a list: endpoints serving the same model
    model: Qwen/Qwen3-8B
    api-key-env: VLLM_KEY        # the variable holding the key; a key itself is refused
    attempts: 4
    max-cost-usd: 20

A flag given on the command line wins over the file; the file wins over the defaults. Values are
converted and checked by the same click types as the flags, so a wrong value fails with the same
one-line error before anything runs. The resolved options (never a key) end up in run.json.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
import yaml

from toolscale.core.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])
SECRET_WORDS = ("key", "token", "secret", "password")


def read_run_config(path: Path) -> dict[str, Any]:
    """The file's mapping with keys normalised to parameter names (dashes -> underscores)."""
    try:
        raw = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read --config {path}: {exc}") from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"--config {path} must be a YAML mapping of option names to values")
    return {str(k).replace("-", "_"): v for k, v in raw.items()}


def merge_run_config(ctx: typer.Context, path: Path, kwargs: dict[str, Any]) -> dict[str, Any]:
    """`kwargs` with every option not given on the command line taken from the file."""
    params = {p.name: p for p in ctx.command.params if p.name and p.name != "config"}
    merged = dict(kwargs)
    for name, value in read_run_config(path).items():
        if name not in params:
            if any(word in name for word in SECRET_WORDS) and not name.endswith("_env"):
                raise ConfigError(
                    f"--config {path}: {name!r} looks like a secret; keys are read from the "
                    "environment only: write api-key-env: VARIABLE and export VARIABLE"
                )
            raise ConfigError(
                f"--config {path}: unknown option {name!r}; options: {', '.join(sorted(params))}"
            )
        source = ctx.get_parameter_source(name)
        if source is not None and source.name == "COMMANDLINE":
            continue
        if getattr(params[name], "multiple", False) and isinstance(value, str):
            value = [value]  # a repeatable flag given once, e.g. base-url: URL
        try:
            merged[name] = params[name].process_value(ctx, value)
        except typer.BadParameter as exc:
            raise ConfigError(f"--config {path}: {name}: {exc.message}") from None
    return merged


def with_run_config(command: F) -> F:
    """Decorate a CLI command that has `ctx: typer.Context` and a `config: Path | None` option
    so that the file fills its other options."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        path = kwargs.get("config")
        if path is not None:
            try:
                kwargs = merge_run_config(kwargs["ctx"], path, kwargs)
            except ConfigError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
        return command(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
