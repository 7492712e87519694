"""`toolscale new-domain NAME`: the scaffold is a declared domain that passes check-domain
--strict as written, and bad names or existing folders are one error line."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from toolscale.core.contract import item_rng
from toolscale.core.errors import ConfigError
from toolscale.kit.scaffold import class_name, new_domain

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"]


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
        "invariants.py",
        "policy.md",
        "test_help_desk.py",
    ]
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("scaffolded.help_desk")
    domain = getattr(module, class_name("help_desk"))()
    assert class_name("help_desk") == "HelpDeskDomain" and "agent of the help desk" in domain.policy
    # named after its name, in restaurant's style (finder / lister tools, shared param docs)
    assert domain.toolkit.__name__ == "HelpDeskTools" and domain.name == "help_desk"
    assert "support desk" not in (tmp_path / "scaffolded" / "help_desk" / "tools.py").read_text()
    assert "docs/kit.md" in (tmp_path / "scaffolded" / "help_desk" / "__init__.py").read_text()
    assert set(domain.toolkit.param_docs) == {"customer_id", "product_id", "ticket_id"}
    used = set()
    for name in domain.templates:
        for i in range(3):
            spec = domain.sample_named(item_rng("help_desk", 0, i), 0, i, name)
            used |= {a.name for a in spec.gold_actions}
    assert used == set(domain.toolkit.specs())
    assert "close_ticket.handoff.disputed" in domain.templates
    assert "close_ticket.which" in domain.templates


def test_a_library_holds_members_books_and_loans(tmp_path, monkeypatch) -> None:
    """The records are the name's own (a library's, not a ticket desk whatever the name)."""
    new_domain("library", tmp_path / "mine")
    monkeypatch.syspath_prepend(str(tmp_path))
    domain = importlib.import_module("mine.library").LibraryDomain()
    world = domain.world(0)
    assert [k for k in world if k != "today"] == ["members", "books", "loans"]
    assert (len(world["members"]), len(world["books"])) == (80, 12)
    assert [e.name for e in domain.entities] == ["member", "book", "loan"]
    assert {g.name for g in domain.goals} == {"renew_loan", "get_loan", "cost"}
    text = "".join(p.read_text() for p in (tmp_path / "mine" / "library").iterdir())
    assert "ticket" not in text and "desk" not in text


def test_in_a_project_the_test_goes_where_its_pytest_collects(tmp_path) -> None:
    """Into a package of a project with tests/ (toolscale's domains/), the domain's test goes
    to tests/domains/ (or tests/), which `testpaths = ["tests"]` collects."""
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    (tmp_path / "tests" / "domains").mkdir(parents=True)
    (tmp_path / "doms").mkdir()
    (tmp_path / "doms" / "__init__.py").write_text("")
    written = new_domain("library", tmp_path / "doms")
    assert written[-1] == tmp_path / "tests" / "domains" / "test_library.py"
    assert not (tmp_path / "doms" / "library" / "test_library.py").exists()
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (
        "tests/domains/test_library.py::test_the_library_domain_passes_check_domain_strict"
        in collected.stdout
    ), collected.stdout + collected.stderr
    with pytest.raises(ConfigError, match="already exists"):
        new_domain("library", tmp_path / "doms")


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


def shims(folder: Path) -> dict[str, str]:
    """An environment whose `toolscale` and `pytest` run this checkout's toolscale with this
    interpreter, so that a printed command runs verbatim (whatever PYTHONPATH it sets)."""
    folder.mkdir()
    for command, module in (("toolscale", "toolscale"), ("pytest", "pytest")):
        shim = folder / command
        shim.write_text(
            f'#!/bin/sh\nPYTHONPATH="${{PYTHONPATH:+$PYTHONPATH:}}{ROOT}" '
            f'exec {sys.executable} -m {module} -p no:cacheprovider "$@"\n'
            if module == "pytest"
            else f'#!/bin/sh\nPYTHONPATH="${{PYTHONPATH:+$PYTHONPATH:}}{ROOT}" '
            f'exec {sys.executable} -m {module} "$@"\n'
        )
        shim.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def printed(result: subprocess.CompletedProcess, start: str) -> str:
    """The command a line of new-domain's output gives after `start`."""
    lines = (result.stdout + result.stderr).splitlines()
    return next(line.strip() for line in lines if line.strip().startswith(start))[len(start) :]


def test_a_new_folder_becomes_an_installable_package_that_registers_its_domains(tmp_path):
    """`--into DIR` makes DIR, with a pyproject.toml whose `toolscale.domains` entry points name
    every domain new-domain put there; installed, toolscale finds them from any folder."""
    made = _cli("new-domain", "shop", "--into", "new/mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    again = _cli("new-domain", "library", "--into", str(tmp_path / "new" / "mine"), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    folder = (tmp_path / "new" / "mine").resolve()
    # the running environment's own python (a README user has no venv activated), and pytest
    # with it (the first command installs none)
    assert printed(made, "next: ") == f"{sys.executable} -m pip install -e {folder} pytest"
    assert f"{sys.executable} -m pytest " in made.stdout + made.stderr
    assert printed(again, "registered it in ") == (
        f'{folder / "pyproject.toml"} (library = "mine.library:LibraryDomain")'
    )
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["toolscale.domains"] == {
        "shop": "mine.shop:ShopDomain",
        "library": "mine.library:LibraryDomain",
    }
    site = tmp_path / "site"
    installed = subprocess.run(
        [*PIP, "--target", str(site), str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    assert (site / "mine" / "shop" / "policy.md").is_file()
    env = {**shims(tmp_path / "bin"), "PYTHONPATH": str(site)}
    listed = subprocess.run(
        ["toolscale", "domains"], cwd="/", env=env, capture_output=True, text=True, timeout=300
    )
    assert listed.returncode == 0, listed.stderr
    assert {"shop", "library"} <= {line.split()[1] for line in listed.stdout.splitlines()[3:-1]}


def test_folders_new_domain_must_not_write_into_are_refused(tmp_path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine")
    for into, words in (
        ("notes", "neither a new or empty folder nor a Python package"),
        ("my-shops", "must be a Python identifier"),
        ("json", "a package named 'json' is already importable"),
    ):
        result = _cli("new-domain", "shop", "--into", into, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("error:") and words in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]
    assert [p.name for p in (tmp_path / "notes").iterdir()] == ["todo.txt"]


@pytest.mark.slow
def test_a_new_domain_passes_check_domain_strict_out_of_the_box(tmp_path) -> None:
    made = _cli("new-domain", "library", "--into", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    # The printed commands, run verbatim from another folder: check-domain without installing,
    # then the domain's own test.
    check = printed(made, "or, without installing: ")
    expected = f'TOOLSCALE_DOMAINS="library=mine.library:LibraryDomain" PYTHONPATH={tmp_path}'
    assert check.startswith(expected)
    env = shims(tmp_path / "bin")
    checked = subprocess.run(
        f"{check} --tasks 30 --fuzz 4",
        shell=True,
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # every one of its 8 intent kinds is also drawn by name (check-domain --per-template)
    assert "30 tasks and 8 templates x 5 checked, no problem" in checked.stdout + checked.stderr
    # and its own test passes as written
    test = printed(made, f"{sys.executable} -m pytest ")
    tested = subprocess.run(
        f"{sys.executable} -m pytest -q {test}",
        shell=True,
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert tested.returncode == 0 and "1 passed" in tested.stdout, tested.stdout + tested.stderr
