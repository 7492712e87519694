"""docs/api.md's example runs as written, and the API is the CLI's: one function per
subcommand, each the one the command calls, imported only when used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import toolscale
from toolscale.core.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def example() -> str:
    text = (ROOT / "docs" / "api.md").read_text()
    return text.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow
def test_the_documented_example_runs(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", example()],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    run = json.loads((tmp_path / "out/api-demo/run.json").read_text())
    assert run["counts"]["sampled"] == 20 and run["config"]["detours"] is True
    assert (tmp_path / "out/api-demo/README.md").is_file()
    lines = (tmp_path / "out/api-sft/sft.jsonl").read_text().splitlines()
    assert done.stdout.strip().endswith(f"{len(lines)} SFT lines")
    assert len({json.loads(line)["task_id"] for line in lines}) == len(lines)  # one per task


def test_every_subcommand_has_its_function_and_import_stays_lazy():
    script = (
        "import sys, toolscale; print(sorted(m for m in sys.modules if m.startswith('toolscale')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert json.loads(done.stdout.replace("'", '"')) == ["toolscale"]
    from toolscale.cli.main import app

    commands = {c.name or c.callback.__name__ for c in app.registered_commands}
    as_functions = {c.replace("-", "_") for c in commands}
    assert as_functions <= set(toolscale.__all__), as_functions - set(toolscale.__all__)
    for name in toolscale.__all__[1:]:
        assert getattr(toolscale, name).__doc__, name


def test_options_are_the_flags_and_a_mistake_is_the_cli_s_error(tmp_path):
    config = toolscale.generate_config(out=str(tmp_path / "o"), domains=["bank", "math"])
    assert config.domains == ["bank", "math"] and config.num_tasks == 200
    assert config.out == tmp_path / "o"
    with pytest.raises(ConfigError, match="unknown option 'num_task' for generate"):
        toolscale.generate(out=str(tmp_path / "o"), num_task=3)
    with pytest.raises(ConfigError, match="--out is required"):
        toolscale.generate(domains="bank")
    with pytest.raises(ConfigError, match="unknown domain 'nope'"):
        toolscale.generate(out=str(tmp_path / "o"), domains="bank,nope", num_tasks=2)
    assert not (tmp_path / "o").exists()
