"""With an LLM teacher the caller is an LLM user simulator by default: `--teacher openai` with no
`--user` sends the user's turns to the teacher's endpoint (the user simulator's prompt, its turns
named "user_simulator" in the trace, `user: llm` in run.json), `--user scripted` keeps the
scripted user, and the choices that cannot work are one ConfigError before anything runs."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans
from toolscale.config.generate import GenerateConfig
from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import check_teacher
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from toolscale.play.usersim import STOP_MARKERS

KEY_ENV = "DEFAULT_USER_KEY"
AGENT = "I cannot help with that."  # what the fake answers a task it has no plan for
# The simulator's view begins with the agent's first text; its turn index counts its own turns.
USER_TURNS = {
    AGENT: [{}, {"content": "But my booking id is BK1234."}, {"content": STOP_MARKERS[0]}]
}


def played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **extra: object
) -> tuple[list[dict], list[str], dict]:
    """The rows of one railway task's attempts, the system prompts the endpoint saw, and
    run.json's config."""
    monkeypatch.setenv(KEY_ENV, "sk-test")
    out = tmp_path / "out"
    with FakeOpenAI(Plans(dict(USER_TURNS))) as server:
        config = GenerateConfig(
            domains=["railway"],
            num_tasks=1,
            out=out,
            teacher="openai",
            base_url=server.base_url,
            model="fake-model",
            api_key_env=KEY_ENV,
            max_retries=0,
            **extra,
        )
        generate(config)
        prompts = [b["messages"][0]["content"] for b in server.plans.bodies]
    found = glob.glob(str(out / "data" / "*" / "*.parquet"))
    rows = [r for p in found for r in pq.read_table(p).to_pylist() if "messages" in r]
    return rows, prompts, json.loads((out / "run.json").read_text())["config"]


def test_the_openai_teacher_talks_to_a_user_simulator_on_its_endpoint(tmp_path, monkeypatch):
    rows, prompts, config = played(tmp_path, monkeypatch)
    assert config["user"] == "llm"
    assert any("customer-service agent" in p for p in prompts)  # the simulator's system prompt
    names = [m["name"] for r in rows for m in r["messages"] if m["role"] == "user"]
    assert "user_simulator" in names and "scripted_user" not in names
    said = [m["content"] for r in rows for m in r["messages"] if m["name"] == "user_simulator"]
    assert said == ["But my booking id is BK1234."]  # then the stop marker ended it


def test_user_scripted_keeps_the_scripted_user(tmp_path, monkeypatch):
    rows, prompts, config = played(tmp_path, monkeypatch, user="scripted")
    assert config["user"] == "scripted"
    assert not any("customer-service agent" in p for p in prompts)
    names = {m["name"] for r in rows for m in r["messages"] if m["role"] == "user"}
    assert "user_simulator" not in names


@pytest.mark.parametrize(
    ("teacher", "fields", "message"),
    [
        ("reference", {"user": "llm"}, "reference teacher plays its gold conversations"),
        ("reference", {"user_model": "u"}, "reference teacher plays its gold conversations"),
        ("openai", {"user": "scripted", "user_model": "u"}, "--user scripted needs no"),
        ("openai", {"user": "human"}, "unknown --user 'human'"),
    ],
)
def test_a_user_choice_that_cannot_work_is_one_config_error(monkeypatch, teacher, fields, message):
    monkeypatch.setenv(KEY_ENV, "k")
    endpoint = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": KEY_ENV}
    options = TeacherOptions(**(endpoint if teacher == "openai" else {}), **fields)
    with pytest.raises(ConfigError, match=message):
        check_teacher(teacher, options)


def test_who_plays_the_caller_by_default() -> None:
    assert TeacherOptions().effective_user("openai") == "llm"
    assert TeacherOptions().effective_user("reference") == "scripted"
    assert TeacherOptions().effective_user("local") == "scripted"
    assert TeacherOptions(user_model="u").effective_user("local") == "llm"
