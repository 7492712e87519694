"""The model loader keeps a checkpoint's own tool template unless told to use Qwen3's."""

from __future__ import annotations

import pytest
from trl.chat_template_utils import qwen3_chat_template

from toolscale.core.errors import ConfigError
from toolscale.llm.local.chat_template import CHAT_TEMPLATE, RESPONSE_TEMPLATE
from trainer.model import byte_tokenizer, load, tiny_random_model, with_tool_template

NO_TOOLS = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
)
# Renders tool calls and results (a tool template), in no format TRL knows how to parse.
TOOLS_NO_PARSER = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}"
    "{% if m.tool_calls %}{{ m.tool_calls | tojson }}{% endif %}<|im_end|>\n{% endfor %}"
)


def tokenizer_with(template: str, response_template: dict | None = None):
    tokenizer = byte_tokenizer()
    tokenizer.chat_template = template
    tokenizer.response_template = response_template
    return tokenizer


def test_a_checkpoint_with_its_own_tool_template_keeps_it(tmp_path):
    model_tokenizer = tokenizer_with(CHAT_TEMPLATE, RESPONSE_TEMPLATE)
    tiny_random_model(model_tokenizer).save_pretrained(tmp_path)
    model_tokenizer.save_pretrained(tmp_path)
    _, tokenizer = load(str(tmp_path))
    assert tokenizer.chat_template == CHAT_TEMPLATE
    assert tokenizer.response_template == RESPONSE_TEMPLATE
    _, forced = load(str(tmp_path), chat_template="qwen3")
    assert forced.chat_template == qwen3_chat_template
    assert forced.response_template != RESPONSE_TEMPLATE


def test_a_template_without_tools_gets_qwen3():
    tokenizer = with_tool_template(tokenizer_with(NO_TOOLS))
    assert tokenizer.chat_template == qwen3_chat_template


def test_a_tool_template_trl_cannot_parse_is_a_config_error():
    with pytest.raises(ConfigError, match="chat_template: qwen3"):
        with_tool_template(tokenizer_with(TOOLS_NO_PARSER), name="some/model")
    forced = with_tool_template(tokenizer_with(TOOLS_NO_PARSER), "qwen3")
    assert forced.chat_template == qwen3_chat_template
    with pytest.raises(ConfigError, match="chat_template must be"):
        with_tool_template(tokenizer_with(TOOLS_NO_PARSER), "llama9")


def test_the_instruct_template_renders_tool_turns_without_think_blocks():
    from trl.chat_template_utils import qwen3_instruct_2507_chat_template

    tokenizer = with_tool_template(
        tokenizer_with(CHAT_TEMPLATE, RESPONSE_TEMPLATE), "qwen3_instruct_2507"
    )
    assert tokenizer.chat_template == qwen3_instruct_2507_chat_template
    call = {
        "type": "function",
        "function": {"name": "calculator", "arguments": {"expression": "1+1"}},
    }
    messages = [
        {"role": "user", "content": "1+1?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "name": "calculator", "content": "2"},
        {"role": "assistant", "content": "The answer is 2."},
    ]
    text = tokenizer.apply_chat_template(messages, tokenize=False)
    assert "<think>" not in text and text.count("<tool_call>") == 1
    reply = '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n</tool_call>'
    parsed = tokenizer.parse_response(reply + "<|im_end|>", prefix="")
    assert parsed["tool_calls"][0]["function"]["name"] == "calculator"


def test_the_tiny_tokenizer_is_byte_level_with_single_token_markers():
    tokenizer = byte_tokenizer()
    text = '<tool_call>\n{"name": "calculator"}\n</tool_call><|im_end|>'
    ids = tokenizer.encode(text, add_special_tokens=False)
    assert tokenizer.decode(ids) == text
    assert len(ids) == len(text.encode()) - len("<tool_call></tool_call><|im_end|>") + 3
    assert len(tokenizer) == 256 + 3 + 6 and tokenizer.eos_token == "<|im_end|>"


@pytest.mark.slow
def test_the_tiny_tokenizer_learnt_from_conversations_is_deterministic_and_short():
    import subprocess
    import sys

    from trainer.model import tiny_tokenizer

    tools = [{"type": "function", "function": {"name": "calculator", "parameters": {}}}]
    chat = [
        {"role": "system", "content": "You answer arithmetic questions with the calculator. " * 20},
        {"role": "user", "content": "What is 9 * 10?"},
        {"role": "assistant", "content": "The answer is 90."},
    ]
    tokenizer = tiny_tokenizer([(chat, tools)])
    text = tokenizer.apply_chat_template(chat, tools=tools, tokenize=False)
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert tokenizer.decode(ids) == text
    assert len(ids) < len(text.encode()) / 10  # merges learnt from the run's own text
    assert len(tokenizer.encode("<tool_call><|im_end|>", add_special_tokens=False)) == 2
    # Another process learns the very same merges (a resumed run rebuilds the same tokenizer).
    code = "from tests.trainer.test_model import tiny_vocab; print(tiny_vocab())"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.strip() == tiny_vocab()


def tiny_vocab() -> str:
    import hashlib

    from trainer.model import tiny_tokenizer

    chat = [{"role": "user", "content": "Compute (90 - 10) / 5 with the calculator, please. " * 5}]
    tokenizer = tiny_tokenizer([(chat, None)])
    return hashlib.sha256(tokenizer.backend_tokenizer.to_str().encode()).hexdigest()


def test_the_tiny_model_has_the_size_asked_for():
    tokenizer = byte_tokenizer()
    model = tiny_random_model(tokenizer, hidden=64, layers=3)
    assert model.config.num_hidden_layers == 3 and model.config.hidden_size == 64
    # a head per 32 dimensions, at least 2; the default keeps its 2 heads of 16
    assert model.config.num_attention_heads == 2 and model.config.head_dim == 32
    small = tiny_random_model(tokenizer)
    assert (small.config.num_hidden_layers, small.config.hidden_size) == (2, 32)
    assert small.config.head_dim == 16
    with pytest.raises(ConfigError, match="tiny_hidden"):
        tiny_random_model(tokenizer, hidden=96, layers=1)  # 3 heads of 32: fine
        tiny_random_model(tokenizer, hidden=100, layers=1)  # 3 heads do not divide 100


def test_the_tiny_tokenizer_reads_at_most_its_limit_of_conversations():
    from trainer.model import tiny_tokenizer

    pairs = [([{"role": "user", "content": f"question {i} " * 20}], None) for i in range(50)]
    few = tiny_tokenizer(pairs, limit=5)
    same = tiny_tokenizer(pairs[::10], limit=5)
    assert few.get_vocab() == same.get_vocab()  # every 10th of 50 = the 5 read
