"""GRPO and `evaluate` seat an LLM user on stateful tasks: a loopback OpenAI-compatible server
plays the caller (it gives what its scenario says it knows and agrees to what it is asked), the
policy reaches it through `ask_user` (GRPO, a checkpoint) or in plain messages (an endpoint), and
its replies are in the judged transcripts; half an LLM user's options is one line."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import datasets
import pytest

import trainer.grpo as grpo_module
from tests.teachers.fake_openai import FakeOpenAI, Plans
from tests.trainer.test_grpo import scripted
from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from trainer.environment import ToolscaleEnvironment
from trainer.evaluate import EvaluateArguments, evaluation
from trainer.model import load
from trainer.user_seat import UserArguments

pytestmark = pytest.mark.slow
REPLY = "Yes, go ahead. "


class UserServer:
    """A loopback chat endpoint playing the caller: to anything the agent says it answers
    REPLY and what its system prompt says it knows, except `###STOP###` to a message in
    `finals` (the agent's last words). Every request's last agent message is kept."""

    def __init__(self, finals: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.finals = finals
        self.heard: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = server.answer(body["messages"])
                payload = json.dumps(
                    {
                        "id": "u",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": text},
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def answer(self, messages: list[dict[str, Any]]) -> str:
        last = str(messages[-1].get("content") or "")
        if "Reply with the word ready" in last:  # the probe
            return "ready"
        self.heard.append(last)
        if last.strip() in self.finals:
            return "###STOP###"
        prompt = messages[0]["content"]
        known = re.search(r"What you know \(tell it only when asked\): (.*)", prompt)
        return REPLY + (known.group(1) if known else "")

    @contextmanager
    def running(self) -> Iterator[UserServer]:
        thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.httpd.shutdown()
            self.httpd.server_close()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("llm-user") / "data"
    generate(GenerateConfig(domains=["ecommerce"], num_tasks=6, out=out))
    return out


def rows(dataset: Path, config: str) -> list[dict]:
    return list(datasets.load_dataset(str(dataset), config, split="train"))


def test_half_an_llm_users_options_is_one_line_and_none_is_the_scripted_user() -> None:
    assert UserArguments().user_simulator() is None
    for half in ({"user_base_url": "http://127.0.0.1:9/v1"}, {"user_model": "u"}):
        with pytest.raises(ConfigError, match="both --user_base_url and --user_model"):
            UserArguments(**half).user_simulator()


def test_an_endpoint_evaluation_talks_to_the_llm_user(dataset, tmp_path, monkeypatch) -> None:
    """The endpoint replays each task's gold conversation; the LLM user answers its questions."""
    golds = [t for t in rows(dataset, "traces") if t["variant"] == "gold"][:3]
    plans: dict[str, list[dict]] = {}
    for trace in golds:
        messages = trace["messages"]
        opening = next(m["content"] for m in messages if m["role"] == "user")
        plans[opening] = [
            {"calls": [(c["name"], c["arguments"]) for c in m["tool_calls"]]}
            if m["tool_calls"]
            else {"content": m["content"]}
            for m in messages
            if m["role"] == "assistant"
        ]
    finals = {t["final_answer"].strip() for t in golds}
    monkeypatch.setenv("EVAL_KEY", "k")
    monkeypatch.setenv("USER_KEY", "u")
    ids = tmp_path / "ids"
    ids.write_text("".join(f"{t['task_id']}\n" for t in golds))
    with FakeOpenAI(Plans(plans)) as agent, UserServer(finals).running() as user:
        options = EvaluateArguments(
            dataset=str(dataset),
            tasks_from=str(ids),
            base_url=agent.base_url,
            model="agent",
            api_key_env="EVAL_KEY",
            max_turns=24,
            reference_rows=False,
            user_base_url=user.base_url,
            user_model="user",
            user_api_key_env="USER_KEY",
        )
        table = evaluation(options)
    asked = [m["content"] for t in golds for m in t["messages"] if m["role"] == "assistant"]
    assert user.heard and set(user.heard) <= {a.strip() for a in asked if a.strip()} | set(asked)
    assert len([h for h in user.heard if h in finals]) == len(golds)  # each ended by the user
    # The gold conversations verify with the LLM user's answers; none is the user's fault.
    assert table.about["user_faults"] == {table.rows[0].policy: {"count": 0, "task_ids": []}}
    assert (table.rows[0].tasks, table.rows[0].success) == (len(golds), 1.0)


def test_grpo_rollouts_ask_the_llm_user(dataset, tmp_path, monkeypatch) -> None:
    """One GRPO step on stateful tasks whose scripted policy first asks the user through
    `ask_user`: every such call reaches the loopback user, and its reply is in the transcript."""
    tasks = rows(dataset, "tasks")[:2]
    question = "Could you tell me your details, please?"
    judged: list = []
    real_judge = ToolscaleEnvironment._judge

    def record_judge(self, completion, tokens, config):
        trace = real_judge(self, completion, tokens, config)
        if not any(trace is seen for seen in judged):
            judged.append(trace)
        return trace

    def load_scripted(name, chat_template=None, conversations=(), tiny=(32, 2)):
        model, tokenizer = load(name, chat_template, conversations, tiny)
        return scripted(model, tokenizer, tasks), tokenizer

    def reply(text: str, rows_: list[dict], wrong: bool) -> str:
        if "<tool_response>" not in text:
            call = {"name": "ask_user", "arguments": {"message": question}}
            return f"<tool_call>\n{json.dumps(call)}\n</tool_call>"
        return "Thank you, that is all."

    monkeypatch.setattr("tests.trainer.test_grpo.scripted_reply", reply)
    monkeypatch.setattr(grpo_module, "load", load_scripted)
    monkeypatch.setattr(ToolscaleEnvironment, "_judge", record_judge)
    monkeypatch.setenv("USER_KEY", "u")
    ids = tmp_path / "ids"
    ids.write_text("".join(f"{t['id']}\n" for t in tasks))
    with UserServer().running() as user:
        grpo_module.grpo(
            [
                "--config", "trainer/configs/cpu-smoke.yaml", "--dataset", str(dataset),
                "--max_steps", "1", "--output_dir", str(tmp_path / "run"),
                "--max_completion_length", "1024", "--warm_start_steps", "0",
                "--domains", "ecommerce", "--max_tasks", "2", "--per_device_train_batch_size", "4",
                "--num_generations", "2", "--user_base_url", user.base_url,
                "--user_model", "user", "--user_api_key_env", "USER_KEY",
            ]
        )  # fmt: skip
    assert len(judged) == 4 and user.heard == [question] * 4
    for trace in judged:
        said = [m.content for m in trace.messages if m.role == "user"][1:]
        assert len(said) == 1 and said[0].startswith(REPLY)


def test_a_rollout_the_user_broke_is_left_out_of_the_update() -> None:
    from types import SimpleNamespace

    from trainer.environment import environment_class

    environment = environment_class("ecommerce", sandbox=None)()
    environment._executed, environment._user_failed = [], ""
    environment._trace = None
    assert environment.excluded == ""
    why = "user withheld: asked for its order id, it never gave 'O1'"
    environment._trace = SimpleNamespace(failure_stage="user", failure_reasons=[why, "state"])
    assert environment.excluded == why
    environment._trace = SimpleNamespace(failure_stage="outcome", failure_reasons=["state"])
    assert environment.excluded == ""
    environment._user_failed = "timeout"
    assert environment.excluded == "ask_user: the user endpoint failed (timeout)"
