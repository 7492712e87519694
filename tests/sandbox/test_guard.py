"""Which runs the isolation guard refuses: model-written code for a domain with a code tool
below the accepted level; never the reference teacher, never a domain without code tools."""

from __future__ import annotations

import pytest

from toolscale.core.errors import ConfigError
from toolscale.sandbox import guard


@pytest.fixture
def unshare_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "isolation_level", lambda: "unshare")
    monkeypatch.setattr(guard, "problem", lambda level: "`bwrap` is not installed")


def test_code_tools_are_found_through_the_toolkit_s_mixins():
    assert guard.code_tools(["math", "knowledge", "railway", "math"]) == ["math/code_executor"]


def test_a_model_writing_code_below_bwrap_is_refused_with_what_to_do(unshare_only):
    with pytest.raises(ConfigError) as refused:
        guard.check_isolation("bwrap", ["knowledge", "math"], model_writes_code=True)
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith("model-written code would run at isolation level 'unshare'")
    assert "(`bwrap` is not installed)" in line and "`apt-get install bubblewrap`" in line
    assert line.endswith("accept the weaker level with --isolation unshare")


def test_the_opt_in_the_reference_teacher_and_code_free_domains_pass(unshare_only):
    guard.check_isolation("unshare", ["math"], model_writes_code=True)
    guard.check_isolation("rlimits", ["math"], model_writes_code=True)
    guard.check_isolation("bwrap", ["math"], model_writes_code=False)
    guard.check_isolation("bwrap", ["knowledge", "railway"], model_writes_code=True)
    assert guard.isolation_warning(["math"], model_writes_code=False) is None
    warning = guard.isolation_warning(["math"], model_writes_code=True)
    assert warning is not None and warning.startswith("model-written code (math/code_executor)")


def test_an_unknown_level_is_one_line_naming_the_choices():
    with pytest.raises(ConfigError, match="--isolation must be one of bwrap, unshare, rlimits"):
        guard.check_isolation("docker", ["railway"], model_writes_code=False)
