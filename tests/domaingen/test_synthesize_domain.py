"""synthesize-domain end to end against a scripted model: every case lands in its stage of the
funnel, generated code runs only in the sandbox (a socket and a home-folder read are contained
and rejected), an accepted domain installs and feeds generate and export, resume sends nothing
again, and bad input is one error line with nothing written."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.domaingen.fake_author import AuthorPlans
from tests.teachers.fake_openai import fake_openai
from toolscale.check.variety import below
from toolscale.cli.main import app
from toolscale.domaingen.domain_synthesis import FUNNEL

pytestmark = pytest.mark.slow  # a module fixture runs whole synthesize-domain runs

ROOT = Path(__file__).resolve().parents[2]
GATES = ["--check-tasks", "12", "--check-per-template", "2", "--fuzz", "8"]


def run(url: str, out: Path, topics: str, *extra: str) -> tuple[int, str]:
    args = ["synthesize-domain", "--topics", topics, "--base-url", url, "--model", "fake"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), *GATES, *extra])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory):
    """One run over five topics, with a listener the socket case aims at and a home folder
    holding a secret."""
    root = tmp_path_factory.mktemp("sdom")
    home = root / "home"
    home.mkdir()
    (home / ".toolscale-secret").write_text("hunter2-secret")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    plans = AuthorPlans({"PORT": str(port), "HOME": str(home)})
    os.environ["OPENAI_API_KEY"] = "test-key"
    saved = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        with fake_openai(plans) as server:
            topics = "bike rental,ebike share,diner,kayak rental,boat rental"
            code, said = run(server.base_url, root / "out", topics, "--repairs", "1")
            before = plans.requests
            again = run(server.base_url, root / "out", topics, "--repairs", "1", "--resume")
            resent = plans.requests - before
    finally:
        os.environ["HOME"] = saved or "/root"
    try:
        connection, _ = listener.accept()
        reached = True
        connection.close()
    except BlockingIOError:
        reached = False
    listener.close()
    summary = json.loads((root / "out" / "run.json").read_text())
    return root, code, said, summary, plans, reached, again, resent


def test_each_case_lands_in_its_stage(first_run) -> None:
    _, code, said, summary, _, _, _, _ = first_run
    assert code == 0, said
    topics = summary["domaingen"]["topics"]
    assert {n: t["stage"] for n, t in topics.items()} == {
        "bike_rental": "accepted",
        "ebike_share": "near_duplicate",
        "diner": "near_duplicate",
        "kayak_rental": "import",
        "boat_rental": "import",
    }
    assert topics["ebike_share"]["repairs"] == {"import": 1}  # the syntax error was mended
    assert topics["ebike_share"]["measured"]["closest"] == {"domain": "bike_rental", "jaccard": 1.0}
    assert topics["diner"]["measured"]["closest"]["domain"] == "restaurant"
    funnel = summary["domaingen"]["funnel"]
    assert funnel["proposed"] == 5 and funnel["spec"] == 5 and funnel["files"] == 5
    assert funnel["import"] == 3 and funnel["near_duplicate"] == 1 and funnel["accepted"] == 1
    assert FUNNEL[-2:] == ("parrot", "variety") and funnel["variety"] == 1  # the last gate
    assert not below(topics["bike_rental"]["measured"]["variety"])  # at the bundled floor
    assert summary["domaingen"]["rejected_by_stage"] == {"near_duplicate": 2, "import": 2}
    # every answer is 1,000 + 200 tokens: 5 specs, 5 files, one repair
    cost = summary["domaingen"]["cost"]
    assert cost["tokens"] == 11 * 1200
    assert cost["by_request"]["repair"]["requests"] == 1


def test_a_socket_and_the_home_folder_are_contained_and_rejected(first_run) -> None:
    root, _, _, summary, _, reached, _, _ = first_run
    topics = summary["domaingen"]["topics"]
    assert reached is False  # the host's listener never saw the sandbox
    assert topics["kayak_rental"]["contained"] and topics["boat_rental"]["contained"]
    assert "tried socket.getaddrinfo 127.0.0.1:" in topics["kayak_rental"]["problems"][0]
    assert ".toolscale-secret" in topics["boat_rental"]["problems"][0]
    assert topics["kayak_rental"]["repairs"] == {}  # contained: never sent back to the model
    for path in (root / "out").rglob("*"):
        if path.is_file() and path.suffix in (".json", ".py", ".md"):
            assert "hunter2-secret" not in path.read_text(errors="replace")
    reason = json.loads((root / "out/rejected/kayak_rental/reason.json").read_text())
    assert reason["stage"] == "import" and reason["contained"]
    assert "bike_rental" not in sys.modules  # the driving process never imported it


def test_resume_skips_the_topics_done(first_run) -> None:
    _, _, _, _, _, _, again, resent = first_run
    assert again[0] == 0, again[1]
    assert resent == 0


def test_an_accepted_domain_installs_and_feeds_generate_and_export(first_run) -> None:
    root, *_ = first_run
    domains = root / "out" / "domains"
    assert sorted(p.name for p in (domains / "bike_rental").iterdir()) == [
        "__init__.py", "model_written.json", "policy.md", "rules.py", "test_bike_rental.py",
        "tools.py", "world.py",
    ]  # fmt: skip
    mark = json.loads((domains / "bike_rental" / "model_written.json").read_text())
    assert mark["trusted"] is False and mark["topic"] == "bike rental"
    assert (
        'TOOLSCALE_DOMAINS="bike_rental=bike_rental:BikeRentalDomain"'
        in (domains / "README.md").read_text()
    )
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}:{domains}",
        "TOOLSCALE_DOMAINS": "bike_rental=bike_rental:BikeRentalDomain",
    }
    data, exported = root / "data", root / "tau2"
    cli = [sys.executable, "-m", "toolscale"]
    done = subprocess.run(
        [*cli, "generate", "--domains", "bike_rental", "--num-tasks", "6", "--out", str(data)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    done = subprocess.run(
        [*cli, "export", str(data), str(exported), "--format", "tau2"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    tasks = [json.loads(p.read_text()) for p in exported.rglob("*.json")]
    assert any(isinstance(t, list) and len(t) == 6 for t in tasks), [
        p.name for p in exported.rglob("*")
    ]
