"""The local model: a real SmolLM2 checkpoint from the GGUF, served by a real `transformers serve`.

The checkpoint is built once per session into the user's cache (`TOOLSCALE_CACHE` moves it); the
first build takes ~20 s, later sessions reuse it. Every server test checks that no process of the
server's group survives the `with` block, including after a SIGINT delivered mid-request.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from urllib.parse import urlsplit

import openai
import pytest
from safetensors import safe_open
from transformers import AutoTokenizer

from tests.signals import default_sigint
from toolscale.core.errors import ConfigError
from toolscale.llm.local.chat_template import RESPONSE_TEMPLATE
from toolscale.llm.local.checkpoint import build_checkpoint
from toolscale.llm.local.server import serve_local_model

pytestmark = pytest.mark.slow

ADD_TOOL = {
    "type": "function",
    "function": {
        "name": "add",
        "description": "Add two numbers.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
}
CALL_TEXT = '<tool_call>\n{"name": "add", "arguments": {"a": 4, "b": 7}}\n</tool_call>'


@pytest.fixture(scope="session")
def checkpoint() -> Path:
    return build_checkpoint()


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _group_members(pgid: int) -> list[str]:
    """`ps` lines of the processes whose process group is `pgid`."""
    listing = subprocess.run(
        ["ps", "-eo", "pgid=,pid=,args="], capture_output=True, text=True, check=True
    ).stdout
    return [line for line in listing.splitlines() if line.split()[0] == str(pgid)]


def _assert_server_gone(pid: int, port: int) -> None:
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    assert _group_members(pid) == []
    assert not _port_open(port)


def test_checkpoint_is_a_plain_llama_with_templates_that_round_trip_tool_calls(checkpoint):
    config = json.loads((checkpoint / "config.json").read_text())
    assert config["architectures"] == ["LlamaForCausalLM"]
    assert "quantization_config" not in config
    # 49152*576 embeddings + 30 layers * 3,540,096 + 576 final norm; lm_head is tied, not stored.
    with safe_open(checkpoint / "model.safetensors", "pt") as weights:
        sizes = [weights.get_slice(key).get_shape() for key in weights.keys()]  # noqa: SIM118 (not a dict)
    assert sum(_numel(shape) for shape in sizes) == 134_515_008

    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    assert tokenizer.response_template == RESPONSE_TEMPLATE
    messages = [
        {"role": "user", "content": "Add 4 and 7."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"type": "function", "function": {"name": "add", "arguments": '{"a": 4, "b": 7}'}}
            ],
        },
    ]
    rendered = tokenizer.apply_chat_template(messages, tools=[ADD_TOOL], tokenize=False)
    assert json.dumps(ADD_TOOL) in rendered
    assert rendered.endswith(f"<|im_start|>assistant\n{CALL_TEXT}<|im_end|>\n")
    prompt = tokenizer.apply_chat_template(
        messages[:1], tools=[ADD_TOOL], tokenize=False, add_generation_prompt=True
    )
    completion = tokenizer(f"{CALL_TEXT}<|im_end|>", add_special_tokens=False)["input_ids"]
    parsed = tokenizer.parse_response(completion, prefix=prompt)
    assert parsed["tool_calls"] == [
        {"type": "function", "function": {"name": "add", "arguments": {"a": 4, "b": 7}}}
    ]


def _numel(shape: list[int]) -> int:
    total = 1
    for dim in shape:
        total *= dim
    return total


def test_server_returns_real_usage_and_parsed_tool_calls_and_leaves_nothing(checkpoint):
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    question = [{"role": "user", "content": "What is the capital of France?"}]
    echo_request = [{"role": "user", "content": f"Repeat exactly, with nothing else:\n{CALL_TEXT}"}]
    with serve_local_model() as server:
        assert server.model == str(checkpoint.resolve())
        client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
        reply = client.chat.completions.create(
            model=server.model, messages=question, tools=[ADD_TOOL], max_tokens=12, temperature=0
        )
        # A greedy 135 M model asked to echo a tool call does so; the server must parse it.
        echo = client.chat.completions.create(
            model=server.model,
            messages=echo_request,
            tools=[ADD_TOOL],
            max_tokens=40,
            temperature=0,
        )
        port = urlsplit(server.base_url).port
        assert _port_open(port)
    prompt_ids = tokenizer.apply_chat_template(
        question, tools=[ADD_TOOL], add_generation_prompt=True, tokenize=True, return_dict=False
    )
    assert reply.usage.prompt_tokens == len(prompt_ids)
    assert 1 <= reply.usage.completion_tokens <= 12
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens
    [call] = echo.choices[0].message.tool_calls
    assert call.function.name == "add"
    assert json.loads(call.function.arguments) == {"a": 4, "b": 7}
    _assert_server_gone(server.pid, port)


SIGINT_CHILD = textwrap.dedent(
    """
    import json, openai
    from toolscale.llm.local.server import serve_local_model

    with serve_local_model() as server:
        print(json.dumps({"pid": server.pid, "base_url": server.base_url}), flush=True)
        client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
        client.chat.completions.create(
            model=server.model,
            messages=[{"role": "user", "content": "Write a very long story about a dragon."}],
            max_tokens=4000,
        )
    """
)


def test_sigint_mid_request_stops_the_server_group(checkpoint):
    child = subprocess.Popen(
        [sys.executable, "-c", SIGINT_CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        started = json.loads(child.stdout.readline())
        port = urlsplit(started["base_url"]).port
        assert _group_members(started["pid"])
        time.sleep(1.5)  # the 4000-token request is now being generated
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert "KeyboardInterrupt" in stderr
    # The interrupt landed inside the HTTP request, not before or after it.
    assert "chat.completions.create" in stderr or "completions.py" in stderr
    _assert_server_gone(started["pid"], port)


HOLDING_CHILD = textwrap.dedent(
    """
    import json, time
    from toolscale.llm.local.server import serve_local_model

    with serve_local_model() as server:
        print(json.dumps({"pid": server.pid, "base_url": server.base_url}), flush=True)
        time.sleep(600)
    """
)


def test_a_killed_parent_takes_its_server_with_it(checkpoint):
    # SIGKILL runs no cleanup code; the kernel's parent-death signal must stop the server.
    with subprocess.Popen([sys.executable, "-c", HOLDING_CHILD], stdout=subprocess.PIPE) as child:
        try:
            started = json.loads(child.stdout.readline())
        finally:
            child.kill()
    port = urlsplit(started["base_url"]).port
    deadline = time.monotonic() + 10
    # The orphaned leader is reaped by init, not by us: give it a moment.
    while _group_members(started["pid"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    _assert_server_gone(started["pid"], port)


def test_a_server_that_fails_to_start_is_a_config_error_quoting_its_log(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "no_such_model_type"}))
    # transformers words the refusal by version: the point is that its log is quoted
    failure = r"exited with code 1 .*(Unrecognized processing class|does not recognize this arch)"
    with pytest.raises(ConfigError, match=failure), serve_local_model(str(tmp_path)):
        pass


def test_a_folder_without_config_is_rejected_before_starting(tmp_path):
    rejected = "not a local Hugging Face model folder"
    with pytest.raises(ConfigError, match=rejected), serve_local_model(str(tmp_path)):
        pass


BUILD_CHILD = (
    "import sys, pathlib\n"
    "from toolscale.llm.local.checkpoint import build_checkpoint\n"
    "print(build_checkpoint(pathlib.Path(sys.argv[1])))"
)


def test_a_killed_build_leaves_no_checkpoint_and_concurrent_builds_agree(tmp_path):
    target = tmp_path / "smollm2-135m-instruct"
    killed = subprocess.Popen([sys.executable, "-c", BUILD_CHILD, str(tmp_path)])
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".smollm2-135m-instruct-build-*")):
        assert killed.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    killed.kill()
    killed.wait()
    assert not target.exists()

    builders = [
        subprocess.Popen([sys.executable, "-c", BUILD_CHILD, str(tmp_path)], stdout=subprocess.PIPE)
        for _ in range(2)
    ]
    outputs = [builder.communicate(timeout=240)[0].decode().strip() for builder in builders]
    assert outputs == [str(target), str(target)]
    assert json.loads((target / "toolscale_build.json").read_text())["build_version"] == 1
    assert list(tmp_path.glob(".smollm2-135m-instruct-build-*")) == []
    shutil.rmtree(target)  # 0.5 GB: do not leave it to pytest's tmp retention
