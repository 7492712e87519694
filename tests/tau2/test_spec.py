"""tau2 domain specs: canonical names, options, file-safe names (no tau2 needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolscale.core.errors import ConfigError
from toolscale.tau2.spec import apply_options, canonical, file_safe, parse, with_options


def test_registered_names_stay_as_written() -> None:
    assert canonical("tau2:retail") == "tau2:retail"
    assert parse("tau2:retail").short == "retail"
    assert not parse("tau2:retail").is_path


def test_relative_folder_becomes_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    spec = parse("tau2:./envs/bank")
    assert spec.ref == str(tmp_path / "envs" / "bank")
    assert spec.short == "bank" and spec.is_path


def test_options_round_trip_in_a_fixed_order(tmp_path: Path) -> None:
    tasks = tmp_path / "t.json"
    name = with_options("tau2:retail", "test", str(tasks))
    assert name == f"tau2:retail?split=test&tasks={tasks}"
    assert parse(name).split == "test" and parse(name).tasks == str(tasks)
    assert canonical(f"tau2:retail?tasks={tasks}&split=test") == name


def test_a_spec_keeps_its_own_option_over_the_flag() -> None:
    assert with_options("tau2:retail?split=train", "test", None) == "tau2:retail?split=train"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("tau2:", "names no domain"),
        ("tau2:retail?color=red", "unknown option 'color'"),
        ("tau2:re tail", "neither a tau2 domain name nor a folder path"),
        ("retail", "not a tau2 domain spec"),
    ],
)
def test_malformed_specs_are_one_clear_error(text: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        parse(text)


def test_file_safe_keeps_builtin_names_and_separates_others() -> None:
    assert file_safe("railway") == "railway"
    one, two = file_safe("tau2:/a/bank"), file_safe("tau2:/b/bank")
    assert one != two
    for name in (one, two, file_safe("tau2:retail?split=test&tasks=/x/y.json")):
        assert "/" not in name and ":" not in name and "?" not in name
    assert file_safe("tau2:retail") == file_safe("tau2:retail")  # stable: resume finds chunks


def test_apply_options_needs_a_tau2_domain() -> None:
    assert apply_options("railway,tau2:retail", "test", None) == [
        "railway",
        "tau2:retail?split=test",
    ]
    assert apply_options("all", None, None) == ["all"]
    with pytest.raises(ConfigError, match="apply to tau2 domains"):
        apply_options("railway", "test", None)
