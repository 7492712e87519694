"""`toolscale new-domain NAME`: the scaffold is a declared domain that passes check-domain
--strict as written, and bad names or existing folders are one error line."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolscale.core.contract import item_rng
from toolscale.core.errors import ConfigError
from toolscale.kit.scaffold import class_name, new_domain

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": f"{cwd}{os.pathsep}{ROOT}", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_scaffold_samples_every_template_with_every_tool(tmp_path, monkeypatch) -> None:
    (tmp_path / "scaffolded").mkdir()
    written = new_domain("help_desk", tmp_path / "scaffolded")
    assert [p.name for p in written] == [
        "__init__.py",
        "rules.py",
        "tools.py",
        "world.py",
        "policy.md",
        "test_help_desk.py",
    ]
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("scaffolded.help_desk")
    domain = getattr(module, class_name("help_desk"))()
    assert class_name("help_desk") == "HelpDeskDomain" and "$0.50 per hour" in domain.policy
    # named after its name, in restaurant's style (finder / lister tools, shared param docs)
    assert domain.toolkit.__name__ == "HelpDeskTools" and domain.name == "help_desk"
    assert "support desk" not in (tmp_path / "scaffolded" / "help_desk" / "tools.py").read_text()
    assert "docs/kit.md" in (tmp_path / "scaffolded" / "help_desk" / "__init__.py").read_text()
    assert "customer_id" in domain.toolkit.param_docs
    used = set()
    for name in domain.templates:
        for i in range(3):
            spec = domain.sample_named(item_rng("help_desk", 0, i), 0, i, name)
            used |= {a.name for a in spec.gold_actions}
    assert used == set(domain.toolkit.specs())
    assert "close.handoff.urgent" in domain.templates and "close.which" in domain.templates


def test_bad_names_and_existing_folders_are_refused(tmp_path) -> None:
    for bad in ("Library", "2shop", "class", "my-shop"):
        with pytest.raises(ConfigError, match="lower-case Python identifier"):
            new_domain(bad, tmp_path)
    new_domain("shop", tmp_path)
    with pytest.raises(ConfigError, match="already exists"):
        new_domain("shop", tmp_path)
    result = _cli("new-domain", "shop", "--into", str(tmp_path), cwd=tmp_path)
    assert (
        result.returncode == 2
        and result.stderr.count("error:") + result.stdout.count("error:") == 1
    )


@pytest.mark.slow
def test_a_new_domain_passes_check_domain_strict_out_of_the_box(tmp_path) -> None:
    (tmp_path / "mine").mkdir()
    made = _cli("new-domain", "desk", "--into", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert 'TOOLSCALE_DOMAINS="desk=mine.desk:DeskDomain" toolscale' in made.stdout + made.stderr
    env = {"TOOLSCALE_DOMAINS": "desk=mine.desk:DeskDomain"}
    checked = _cli(
        "check-domain", "desk", "--strict", "--tasks", "30", "--fuzz", "4", cwd=tmp_path, env=env
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # every one of its 8 intent kinds is also drawn by name (check-domain --per-template)
    assert "30 tasks and 8 templates x 5 checked, no problem" in checked.stdout + checked.stderr
    # and its own test passes as written
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "mine/desk"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tested.returncode == 0 and "1 passed" in tested.stdout, tested.stdout + tested.stderr
