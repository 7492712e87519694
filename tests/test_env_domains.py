"""A domain registered only through TOOLSCALE_DOMAINS (the ledger fixture, never installed) works
with every command that needs domains, in their worker processes too (generate's sandbox, the
trainer's data loading), and a domain no one registered is one error line, exit 2, that says how
to add it with the variable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.ledger.registration import with_ledger
from tests.test_shard_merge import one_error_line

pytestmark = pytest.mark.slow  # ~1 min: each command in its own process

TRAINER_ROWS = """
import sys
from trainer.args import ToolscaleArguments
from trainer.data import grpo_rows, sft_rows
options = ToolscaleArguments(dataset=sys.argv[1])
rows, sft = grpo_rows(options), sft_rows(options)
print(len(rows), len(sft), sorted(set(rows["domain"])))
"""


def toolscale(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscale", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def without_ledger() -> dict[str, str]:
    kept = [e for e in os.environ.get("TOOLSCALE_DOMAINS", "").split(",") if "ledger" not in e]
    return {**os.environ, "TOOLSCALE_DOMAINS": ",".join(kept)}


@pytest.fixture(scope="module")
def output(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("env") / "out"
    args = ("--domains", "ledger", "--num-tasks", "8", "--detours", "--workers", "2")
    made = toolscale(with_ledger(), "generate", *args, "--out", str(out))
    assert made.returncode == 0, made.stderr
    return out


def test_generate_validate_check_rewards_export_view_and_training_rows(output, tmp_path):
    env = with_ledger()
    run = json.loads((output / "run.json").read_text())
    assert run["counts"]["sampled"] == 8 and run["counts"]["verified"] >= 8
    validated = toolscale(env, "validate", str(output))
    assert validated.returncode == 0 and validated.stderr.endswith(" rows valid\n"), (
        validated.stderr
    )
    rewards = toolscale(env, "check-rewards", str(output), "--tasks", "8")
    assert rewards.returncode == 0, rewards.stderr
    checked = json.loads((output / "reward_check.json").read_text())
    assert checked["passed"] and {c["domain"] for c in checked["table"]} == {"ledger"}
    for fmt in ("tau2", "sft"):
        exported = toolscale(env, "export", str(output), str(tmp_path / fmt), "--format", fmt)
        assert exported.returncode == 0 and any((tmp_path / fmt).iterdir()), exported.stderr
    viewed = toolscale(env, "view", str(output), "--html", str(tmp_path / "html"))
    assert viewed.returncode == 0 and (tmp_path / "html" / "index.html").is_file()
    loaded = subprocess.run(
        [sys.executable, "-c", TRAINER_ROWS, str(output)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, "HF_HUB_OFFLINE": "1"},
    )
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    tasks, traces, domains = loaded.stdout.split(maxsplit=2)
    assert (int(tasks), domains.strip()) == (8, "['ledger']") and int(traces) >= 8


def test_check_domain_passes_strict_on_the_registered_domain():
    checked = toolscale(with_ledger(), "check-domain", "ledger", "--strict", "--tasks", "20")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.splitlines()[-1] == (
        "domain 'ledger': 20 tasks and 2 templates x 5 checked, no problem"
    )


NEW = "NEW"  # a new output folder
OUT = "OUT"  # the output generated with the ledger domain


@pytest.mark.parametrize(
    "command",
    [
        ["generate", "--domains", "ledger", "--num-tasks", "2", "--out", NEW],
        ["check-domain", "ledger"],
        [
            "synthesize",
            "--domains",
            "ledger",
            "--out",
            NEW,
            "--base-url",
            "http://x/v1",
            "--model",
            "m",
        ],
        ["validate", OUT],  # an output made with ledger, read without it
        ["check-rewards", OUT],
    ],
)
def test_an_unregistered_domain_is_one_error_line_naming_the_variable(command, output, tmp_path):
    paths = {NEW: str(tmp_path / "new"), OUT: str(output)}
    result = toolscale(
        {**without_ledger(), "OPENAI_API_KEY": "k"}, *(paths.get(a, a) for a in command)
    )
    one_error_line(result, "unknown domain 'ledger'", 'TOOLSCALE_DOMAINS="ledger=module:Class"')
    assert not (tmp_path / "new").exists()
