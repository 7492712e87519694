"""Each option is declared once, as a config field (`toolscale.config.option`): the command line's
flags, defaults and help come from it, and `from_flags` builds the config the command runs."""

from __future__ import annotations

from dataclasses import dataclass, field

import typer
from rich.markup import escape
from typer.testing import CliRunner

from toolscale.cli import app
from toolscale.cli.options import flags_of
from toolscale.config.generate import GenerateConfig
from toolscale.config.option import declared, from_flags, option


@dataclass(frozen=True)
class Toy:
    names: list[str] = option(
        help="Comma-separated names.", cli_type=str, cli_default="a", parse=lambda t: t.split(",")
    )
    workers: int = option(2, help="Worker processes.")
    timeout_s: float = option(1.5, help="Seconds per call.", flag="timeout")
    hidden: int = field(default=7)  # no option: a library-only setting, no flag


def toy_app(seen: list[Toy]) -> typer.Typer:
    toy = typer.Typer()

    @toy.command()
    @flags_of(Toy)
    def run(ctx: typer.Context, **flags: object) -> None:
        seen.append(from_flags(Toy, flags))

    return toy


def test_a_declared_option_is_a_flag_with_its_default_help_and_parser() -> None:
    seen: list[Toy] = []
    runner = CliRunner()
    shown = runner.invoke(toy_app(seen), ["--help"]).output
    assert "--workers" in shown and "Worker processes." in shown and "--timeout" in shown
    assert "--hidden" not in shown and "--timeout-s" not in shown
    result = runner.invoke(toy_app(seen), ["--names", "x,y", "--timeout", "3"])
    assert result.exit_code == 0, result.output
    assert seen == [Toy(names=["x", "y"], workers=2, timeout_s=3.0, hidden=7)]


def test_generate_has_a_flag_for_every_option_its_config_declares_and_no_other() -> None:
    command = typer.main.get_command(app).commands["generate"]
    params = {p.name: p for p in command.params}
    extra = {
        "split",
        "tau2_tasks",
        "reward_weights",
        "reward_options",
        "reward_components",
        "config",
    }
    options = {d.flag: d for d in declared(GenerateConfig)}
    assert set(params) == set(options) | extra
    for name, item in options.items():
        assert params[name].help == escape(item.help)  # shown as written, not read as markup
        assert params[name].default == item.default, name


def test_a_default_in_square_brackets_is_shown_not_read_as_markup() -> None:
    # "[the proposer's]" vanished from `synthesize --help` ("Solver endpoint ."): rich read it
    # as a markup tag
    shown = CliRunner().invoke(app, ["synthesize", "--help"], env={"COLUMNS": "200"}).output
    assert "Solver endpoint [the proposer's]." in shown
    assert "Solver endpoint ." not in shown
