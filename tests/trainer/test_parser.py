"""toolscale-train's usage mistakes are one `error:` line that names the option (trainer.parser)."""

from __future__ import annotations

import pytest

from toolscale.core.errors import ConfigError
from trainer import cli
from trainer.evaluate import EvaluateArguments
from trainer.parser import parse


def one_error_line(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    lines = [line for line in (captured.err + captured.out).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), lines[:5]
    return lines[0]


def test_a_missing_required_option_is_one_line_not_argparse_usage(capsys):
    # argparse printed 149 lines of usage (TRL's fields) for `sft` without --dataset
    line = one_error_line(capsys, ["sft", "--output_dir", "unused"])
    assert "--dataset" in line and "toolscale-train sft --help" in line
    line = one_error_line(capsys, ["evaluate"])
    assert "--dataset" in line and "toolscale-train evaluate --help" in line


def test_a_misspelt_option_is_named_with_the_closest_known_one(capsys):
    line = one_error_line(capsys, ["sft", "--dataset", "x", "--learnig_rate", "0.1"])
    assert line.startswith("error: unknown option --learnig_rate (did you mean --learning_rate?)")
    assert "HfArgumentParser" not in line


def test_a_bad_value_and_an_unknown_command_are_one_line(capsys):
    line = one_error_line(capsys, ["evaluate", "--dataset", "x", "--heldout_fraction", "lots"])
    assert "--heldout_fraction" in line and "lots" in line
    assert one_error_line(capsys, ["fit"]) == (
        "error: unknown command 'fit'; use grpo, sft or evaluate (toolscale-train --help)"
    )
    assert one_error_line(capsys, []).startswith("error: no command;")


def test_an_argument_that_is_no_option_is_named():
    with pytest.raises(ConfigError, match="unexpected arguments stray"):
        parse("evaluate", (EvaluateArguments,), ["--dataset", "x", "stray"])
