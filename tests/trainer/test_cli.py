"""`toolscale-train` as written in the README: a real CPU run, and one clear line for bad input."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate

ROOT = Path(__file__).resolve().parents[2]


def train(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trainer.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error:")
    for word in words:
        assert word in last, last


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("train") / "data"
    generate(GenerateConfig(domains=["math", "faulty"], num_tasks=8, out=out, detours=True))
    return out


@pytest.mark.parametrize(
    ("flag", "words"),
    [
        (["--variants", ","], ["--variants takes", "best"]),
        (["--trace_variants", "gold"], ["now --variants"]),
    ],
)
@pytest.mark.slow
def test_bad_variants_flag_is_one_line_before_any_data_is_read(tmp_path, flag, words):
    result = train(
        "sft",
        "--config",
        "trainer/configs/sft-cpu.yaml",
        "--dataset",
        str(tmp_path / "never-read"),
        "--output_dir",
        str(tmp_path / "run"),
        *flag,
    )
    assert_one_line_error(result, *words)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("flag", "words"),
    [
        (["--heldout_fraction", "1.5"], ["--heldout_fraction", "0 <= F < 1", "not 1.5"]),
        (["--heldout_fraction", "-0.1"], ["--heldout_fraction", "0 <= F < 1"]),
        (["--domains", "bank,bnak"], ["unknown domain 'bnak' in --domains", "bank, "]),
    ],
)
@pytest.mark.slow
def test_a_bad_filter_flag_is_one_line_naming_it_before_any_data_is_read(tmp_path, flag, words):
    result = train(
        "sft",
        "--dataset",
        str(tmp_path / "never-read"),
        "--output_dir",
        str(tmp_path / "run"),
        *flag,
    )
    assert_one_line_error(result, *words)
    assert [line for line in result.stderr.splitlines() if line.startswith("error:")] == [
        result.stderr.strip().splitlines()[-1]
    ]
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("saved", ["model.safetensors", "checkpoint-4/trainer_state.json"])
@pytest.mark.slow
def test_training_into_a_trained_model_s_folder_is_refused_unless_asked(tmp_path, saved):
    run = tmp_path / "run"
    (run / saved).parent.mkdir(parents=True, exist_ok=True)
    (run / saved).write_text("{}")
    before = sorted(str(p) for p in run.rglob("*"))
    (tmp_path / "never-read").mkdir()  # there, so the refusal is the output folder's
    result = train("sft", "--dataset", str(tmp_path / "never-read"), "--output_dir", str(run))
    found = saved.split("/")[0]
    assert_one_line_error(
        result,
        f"--output_dir {run} already holds a trained model ({found})",
        "--overwrite_output_dir true",
    )
    assert sorted(str(p) for p in run.rglob("*")) == before
    # with the flag the run goes on to read its data (here: none there)
    result = train(
        "sft",
        "--dataset",
        str(tmp_path / "never-read"),
        "--output_dir",
        str(run),
        "--overwrite_output_dir",
        "true",
    )
    assert_one_line_error(result, "never-read", "has no traces config")


def test_only_a_run_that_does_not_resume_is_refused_a_trained_folder(tmp_path):
    from types import SimpleNamespace

    from toolscale.core.errors import ConfigError
    from trainer.args import resume_target

    def config(resume: str | None) -> SimpleNamespace:
        return SimpleNamespace(output_dir=str(tmp_path), resume_from_checkpoint=resume)

    assert resume_target(config(None)) is None  # an empty folder
    (tmp_path / "metrics.jsonl").write_text("")
    assert resume_target(config(None)) is None  # metrics alone: no model
    (tmp_path / "checkpoint-2").mkdir()
    (tmp_path / "checkpoint-2" / "trainer_state.json").write_text("{}")
    with pytest.raises(ConfigError, match=r"holds a trained model \(checkpoint-2\)"):
        resume_target(config(None))
    assert resume_target(config(None), overwrite=True) is None
    assert resume_target(config("last")) is True  # resuming is what the checkpoint is for
    assert resume_target(config(str(tmp_path / "checkpoint-2"))) == str(tmp_path / "checkpoint-2")


def test_the_domain_filter_names_each_unknown_domain_and_the_installed_ones():
    from toolscale.core.errors import ConfigError
    from toolscale.core.registry import names
    from trainer.data import check_domain_filter

    with pytest.raises(ConfigError) as raised:
        check_domain_filter("bnak, math,mth")
    assert str(raised.value) == (
        f"unknown domains 'bnak', 'mth' in --domains; installed domains: {', '.join(names())}"
    )
    check_domain_filter("all")
    check_domain_filter("bank,math")
    check_domain_filter("tau2:airline")  # a domain source's name: the rows will tell
    check_domain_filter("tau2:airline,bank", present={"tau2:airline"})
    with pytest.raises(ConfigError, match="unknown domain 'tau2:airline' in --domains"):
        check_domain_filter("tau2:airline", present={"bank"})


@pytest.mark.slow
def test_missing_dataset(tmp_path):
    result = train(
        "grpo",
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--dataset",
        str(tmp_path / "nope"),
        "--output_dir",
        str(tmp_path / "run"),
    )
    assert_one_line_error(result, "nope")


@pytest.mark.slow
def test_dataset_without_the_needed_columns(dataset, tmp_path):
    broken = tmp_path / "broken"
    subprocess.run(["cp", "-r", str(dataset), str(broken)], check=True)
    for shard in (broken / "data" / "tasks").glob("*.parquet"):
        table = pq.read_table(shard)
        pq.write_table(table.drop(["gold_actions", "initial_state"]), shard)
    result = train(
        "grpo",
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--dataset",
        str(broken),
        "--output_dir",
        str(tmp_path / "run"),
    )
    assert_one_line_error(result, "gold_actions", "initial_state")


@pytest.mark.slow
def test_rows_of_a_domain_that_is_not_installed(dataset, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TOOLSCALE_DOMAINS"}
    result = train(
        "grpo",
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--dataset",
        str(dataset),
        "--domains",
        "all",
        "--output_dir",
        str(tmp_path / "run"),
        env=env,
    )
    assert_one_line_error(result, "not installed", "faulty")


def test_model_path_that_does_not_exist(dataset, tmp_path):
    result = train(
        "grpo",
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--dataset",
        str(dataset),
        "--model",
        str(tmp_path / "no-model"),
        "--output_dir",
        str(tmp_path / "run"),
    )
    assert_one_line_error(result, "does not exist", "no-model")
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_unreachable_hub_dataset_is_one_line(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = train(
        "grpo",
        "--config",
        "trainer/configs/cpu-smoke.yaml",
        "--dataset",
        "nobody-here/no-such-dataset",
        "--output_dir",
        str(tmp_path / "run"),
        env=env,
    )
    assert_one_line_error(result, "nobody-here/no-such-dataset", "Hub")


@pytest.mark.slow
def test_readme_smoke_command_learns_in_both_steps(dataset, tmp_path):
    """The smoke run has a reward spread and a gradient in both steps (not a no-op)."""
    out = tmp_path / "run"
    readme = (ROOT / "README.md").read_text().split("## Training", 1)[1]
    line = next(x for x in readme.splitlines() if "toolscale-train grpo" in x and "smoke" in x)
    argv = shlex.split(line)[1:]  # as written, with this test's dataset and output folder
    argv[argv.index("--dataset") + 1] = str(dataset)
    argv[argv.index("--output_dir") + 1] = str(out)
    assert argv[:3] == ["grpo", "--config", "trainer/configs/cpu-smoke.yaml"]
    result = train(*argv)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (out / "model.safetensors").exists() and (out / "reward_config.json").exists()
    steps = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    logged = [s for s in steps if "reward_std" in s]
    assert [s["step"] for s in logged] == [1, 2]
    for step in logged:
        assert step["reward_std"] > 0.1 and step["grad_norm"] > 0
        assert step["toolscale/groups_dropped"] < 1.0
        assert 0 < step["toolscale/success_rate"] < 1


def test_the_error_line_is_one_write(monkeypatch, tmp_path):
    # Ranks of one torchrun job share stderr: a line written in two pieces (print writes the text
    # and the newline apart) interleaves with another rank's into one line.
    from trainer import cli

    writes: list[str] = []

    class Recorder:
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stderr", Recorder())
    with pytest.raises(SystemExit) as exited:
        cli.main(["grpo", "--config", str(tmp_path / "missing.yaml")])
    assert exited.value.code == 2
    assert len(writes) == 1 and writes[0].startswith("error:") and writes[0].endswith("\n")
    assert "missing.yaml" in writes[0] and "Errno" not in writes[0]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["grpo", "evaluate"])
def test_the_policy_s_code_is_refused_below_bubblewrap_unless_accepted(dataset, tmp_path, command):
    """Below bwrap (forced here as a worker's parent would force it) rollouts that run the
    policy's programs are refused in one line before the model loads (a model that exists, so
    that the missing-model check, made while the options are read, does not answer first)."""
    env = {**os.environ, "TOOLSCALE_SANDBOX_LEVEL": "unshare"}
    run = ["--dataset", str(dataset), "--domains", "math", "--output_dir", str(tmp_path / "run")]
    run += ["--model", "tiny-random"]
    if command == "grpo":
        run += ["--config", "trainer/configs/cpu-smoke.yaml"]
    result = train(command, *run, env=env)
    assert_one_line_error(result, "isolation level 'unshare", "apt-get install bubblewrap")
    assert result.stderr.strip().endswith("--isolation unshare")
    assert not (tmp_path / "run").exists()


def test_cpu_defaults_fill_only_what_the_command_and_its_config_leave_unset(tmp_path):
    from trainer.cli_options import with_cpu_defaults

    assert with_cpu_defaults(["--dataset", "d"], gpu=False) == (
        ["--dataset", "d", "--use_cpu", "true", "--bf16", "false"],
        ["use_cpu true", "bf16 false"],
    )
    assert with_cpu_defaults(["--bf16=true"], gpu=False)[1] == ["use_cpu true"]
    config = tmp_path / "c.yaml"
    config.write_text("use_cpu: false\nlearning_rate: 0.1\n")
    assert with_cpu_defaults(["--config", str(config)], gpu=False)[1] == ["bf16 false"]
    assert with_cpu_defaults([f"--config={config}", "--bf16", "false"], gpu=False)[1] == []
    assert with_cpu_defaults(["--dataset", "d"], gpu=True) == (["--dataset", "d"], [])


def test_help_shows_toolscale_s_options_and_trl_s_behind_help_all():
    short = train("sft", "--help")
    assert short.returncode == 0, short.stderr
    assert "--variants" in short.stdout and "--help-all" in short.stdout
    assert len(short.stdout.splitlines()) < 100 and "--learning_rate" not in short.stdout
    full = train("grpo", "--help-all")
    assert full.returncode == 0 and "--learning_rate" in full.stdout and "--variants" in full.stdout
    top = train("--help")
    assert top.returncode == 0 and "toolscale-train {grpo,sft}" in top.stdout


@pytest.mark.parametrize(
    ("model", "offline", "words"),
    [
        ("trainer/no-such-run", "0", "no model folder trainer/no-such-run"),  # trainer/ exists
        ("nobody-here/no-model", "1", "not cached while HF_HUB_OFFLINE is set"),
    ],
)
def test_a_missing_model_is_one_line_at_once(tmp_path, model, offline, words):
    """Not 100 s of Hub retries: refused while the options are parsed, before any data."""
    env = {**os.environ, "HF_HUB_OFFLINE": offline}
    args = ["--dataset", str(tmp_path / "no-data"), "--model", model]
    result = train("sft", *args, "--output_dir", str(tmp_path / "run"), env=env)
    assert_one_line_error(result, words)
    assert [line for line in result.stderr.splitlines() if line.strip()] == [result.stderr.strip()]
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_sft_runs_on_a_cpu_without_a_config_and_says_what_it_took(dataset, tmp_path):
    out = tmp_path / "run"
    result = train(
        "sft", "--dataset", str(dataset), "--domains", "math", "--output_dir", str(out),
        "--max_steps", "1", "--max_length", "2048",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stderr.splitlines()
    assert "no GPU: training on the CPU (use_cpu true, bf16 false)" in lines
    said = next(line for line in lines if line.startswith("SFT on --variants best: "))
    found = re.fullmatch(r"SFT on --variants best: (\d+) traces \((.+)\) of (\d+) tasks", said)
    assert found and found[1] == found[3] != "0", said  # one trace per task
    assert sum(int(part.split()[-1]) for part in found[2].split(", ")) == int(found[1])
    assert (out / "model.safetensors").exists()
