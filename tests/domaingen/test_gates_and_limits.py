"""synthesize-domain's other outcomes: a READ tool that writes fails check-domain, a tool that
crashes on hostile arguments fails the fuzzer, monotonous tasks (one wording, one motive per
goal) fail the variety gate and are repaired, a domain that spins is killed at the sandbox's
time limit; the budget stops the run cleanly, a shard does only its topics, and bad input is
one error line, exit 2, nothing written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.domaingen.fake_author import AuthorPlans
from tests.domaingen.test_synthesize_domain import run
from tests.teachers.fake_openai import fake_openai
from toolscale.check.variety import FLOOR
from toolscale.cli.main import app


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.mark.slow  # whole synthesize-domain runs in the sandbox
def test_a_writing_read_tool_a_fuzzer_crash_and_monotonous_tasks_land_in_their_stages(
    tmp_path: Path,
) -> None:
    with fake_openai(AuthorPlans()) as server:
        code, said = run(
            server.base_url,
            tmp_path / "out",
            "scooter hire,canoe hire,trike hire",
            "--repairs",
            "0",
        )
    assert code == 0, said
    summary = json.loads((tmp_path / "out/run.json").read_text())["domaingen"]
    topics = summary["topics"]
    assert topics["scooter_hire"]["stage"] == "check_domain"
    assert any("changed the state" in p or "READ" in p for p in topics["scooter_hire"]["problems"])
    assert topics["canoe_hire"]["stage"] == "fuzz"
    assert any("ZeroDivisionError" in p for p in topics["canoe_hire"]["problems"])
    assert (tmp_path / "out/rejected/canoe_hire/tools.py").read_text().count("10 // (hours") == 1
    # trike hire: bike rental with one wording and one motive per goal, correct otherwise
    trike = topics["trike_hire"]
    assert trike["stage"] == "variety" and not trike["contained"]
    ratio = trike["measured"]["variety"]["trigram_ratio"]
    said = f"first-message 3-gram ratio {ratio:.4f} is below the bundled domains' floor 0.6319"
    assert any(p.startswith(said) for p in trike["problems"]) and 0.55 < ratio < 0.57
    assert ratio < FLOOR.trigram_ratio
    assert trike["measured"]["variety"]["tasks"] == FLOOR.tasks
    assert summary["funnel"]["parrot"] == 1 and summary["funnel"]["variety"] == 0
    assert summary["rejected_by_stage"] == {"check_domain": 1, "fuzz": 1, "variety": 1}


@pytest.mark.slow  # whole synthesize-domain runs in the sandbox
def test_monotonous_tasks_are_repaired_by_the_model(tmp_path: Path) -> None:
    plans = AuthorPlans()
    with fake_openai(plans) as server:
        code, said = run(server.base_url, tmp_path / "out", "trike hire", "--repairs", "1")
    assert code == 0, said
    trike = json.loads((tmp_path / "out/run.json").read_text())["domaingen"]["topics"]["trike_hire"]
    # The variety problem goes back to the model once, and its second answer is measured again.
    # Whether that answer clears the floor is not asserted: since change-of-mind callers open
    # with their own records (kit identification, 2026-12-06) this small fixture sits at the
    # floor (262-268 follow-ups against 265, moving +-10 with any change of the draws).
    assert trike["repairs"] == {"variety": 1}
    assert trike["stage"] in ("accepted", "variety")
    assert plans.asked[-1] == ("files", "trike hire", 1)  # the second answer: every wording
    assert "variety" in trike["measured"]


@pytest.mark.slow  # whole synthesize-domain runs in the sandbox
def test_a_template_that_finds_nothing_tells_the_model_why(tmp_path: Path) -> None:
    """A goal whose `when` never holds: the repair request names the goal, its condition and a
    drawn record (not "found nothing to work on in 20 draws" alone), and the mended domain is
    accepted. EXCHANGE=path writes the exchange docs/synthesize-domain.md shows."""
    plans = AuthorPlans()
    with fake_openai(plans) as server:
        code, said = run(server.base_url, tmp_path / "out", "cargo bike hire", "--repairs", "1")
    assert code == 0, said
    topic = json.loads((tmp_path / "out/run.json").read_text())["domaingen"]["topics"]
    cargo = topic["cargo_bike_hire"]
    assert cargo["stage"] == "accepted" and cargo["repairs"] == {"check_domain": 1}
    repair = plans.bodies[-1]["messages"][-1]["content"]
    assert repair.startswith("The check_domain check found these problems:\n- problem [sample] ")
    assert (
        "KitError: template get_rental found nothing to work on in 20 draws: 60 of 60 draws: no "
        "drawn record fits goal get_rental's `when` def _booked(draw: Draw) -> bool: return "
        'draw["rental"]["status"] == "reserved" (one drawn rental: {\'rental_id\': \'BR'
    ) in repair
    assert "- problem [sample] template get_rental, draws 0, 1: KitError: " in repair  # one line
    if os.environ.get("EXCHANGE"):
        Path(os.environ["EXCHANGE"]).write_text(json.dumps(plans.bodies, indent=1))


@pytest.mark.slow  # whole synthesize-domain runs in the sandbox
def test_a_spinning_domain_is_killed_at_the_time_limit(tmp_path: Path) -> None:
    with fake_openai(AuthorPlans()) as server:
        code, said = run(server.base_url, tmp_path / "out", "tandem hire", "--gate-timeout", "8")
    assert code == 0, said
    topic = json.loads((tmp_path / "out/run.json").read_text())["domaingen"]["topics"]
    assert topic["tandem_hire"]["stage"] == "import"
    assert topic["tandem_hire"]["problems"] == ["the sandbox killed it at its time limit"]


def test_the_budget_stops_the_run_cleanly(tmp_path: Path) -> None:
    prices = ["--repairs", "0", "--teacher-price-in", "1000", "--max-cost-usd", "0.5"]  # $1 each
    with fake_openai(AuthorPlans()) as server:
        code, said = run(server.base_url, tmp_path / "out", "nowhere,elsewhere", *prices)
        assert code == 3, said
        summary = json.loads((tmp_path / "out/run.json").read_text())
        assert summary["status"] == "budget_exhausted"
        assert summary["domaingen"]["funnel"]["proposed"] == 1  # the first topic finished
        code, said = run(server.base_url, tmp_path / "out", "nowhere,elsewhere", *prices[:4],
                         "--max-cost-usd", "5", "--resume")  # fmt: skip
    assert code == 0, said
    summary = json.loads((tmp_path / "out/run.json").read_text())
    assert summary["domaingen"]["rejected_by_stage"] == {"spec": 2}


def test_a_shard_writes_only_its_topics(tmp_path: Path) -> None:
    plans = AuthorPlans()
    with fake_openai(plans) as server:
        code, said = run(server.base_url, tmp_path / "out", "nowhere,elsewhere,anywhere",
                         "--shard", "1/2", "--repairs", "0")  # fmt: skip
    assert code == 0, said
    topics = json.loads((tmp_path / "out/run.json").read_text())["domaingen"]["topics"]
    assert sorted(topics) == ["elsewhere"]
    assert plans.asked == [("spec", "elsewhere", 0)]
    kept = tmp_path / "out/rejected/elsewhere"
    assert (kept / "answer.md").read_text() == "I would rather not."  # what the model wrote
    assert json.loads((kept / "reason.json").read_text())["stage"] == "spec"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--topics", "1st,2nd"], "gives no Python package name"),
        (["--topics", "restaurant"], "is a domain that already exists"),
        (["--topics", "json"], "shadows a module"),
        (["--topics", "a b,a-b"], "name the same domain"),
        (["--topics", "dental clinic", "--repairs", "-1"], "--repairs must be at least 0"),
        (["--topics", "dental clinic", "--example", "nothing"], "is not an installed domain"),
        (["--topics", "dental clinic", "--shard", "3/3"], "--shard"),
        ([], "give the topics"),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(
    tmp_path: Path, args: list[str], said: str
) -> None:
    out = tmp_path / "out"
    base = ["synthesize-domain", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    result = CliRunner().invoke(app, [*base, "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert said in result.output and result.output.count("error:") == 1
    assert not out.exists()


def test_an_endpoint_that_does_not_answer_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["synthesize-domain", "--topics", "dental clinic", "--base-url", "http://127.0.0.1:9/v1"]
    result = CliRunner().invoke(
        app, [*args, "--model", "m", "--out", str(out), "--max-retries", "0"]
    )
    assert result.exit_code == 2, result.output
    assert "does not answer" in result.output and not out.exists()
    assert os.environ["OPENAI_API_KEY"] == "test-key"
