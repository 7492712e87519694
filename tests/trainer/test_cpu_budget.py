"""The CPU-budget options: task subsets by template and difficulty, training the top layers only,
and GRPO rollouts generated with the shared prompt head encoded once."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch

from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from trainer.cached_generation import CachedGenerationMixin, check_cached_generation
from trainer.data import grpo_rows, sft_rows
from trainer.model import load, train_top_layers

pytestmark = pytest.mark.slow  # module fixtures that generate and play outputs

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("subsets") / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=12, out=out, detours=True))
    return out


def options(dataset, **kw):
    base = dict(
        dataset=str(dataset),
        dataset_config=None,
        domains="math",
        templates="all",
        difficulties="all",
        max_tasks=None,
    )
    return SimpleNamespace(**{**base, **kw})


def test_difficulty_filter_keeps_exactly_the_named_difficulties(dataset):
    every = grpo_rows(options(dataset))
    easy = grpo_rows(options(dataset, difficulties="easy"))
    assert set(easy["difficulty"]) == {"easy"}
    assert len(easy) == sum(d == "easy" for d in every["difficulty"]) > 0
    # SFT conversations (--variants all): every verified trace of the easy tasks, and only those.
    import datasets

    traces = datasets.load_dataset(str(dataset), "traces", split="train")
    easy_ids = set(easy["id"])
    expected = sum(t in easy_ids for t in traces["task_id"])
    every_variant = sft_rows(options(dataset, difficulties="easy", variants="all"))
    assert len(every_variant) == expected > len(easy)
    with pytest.raises(ConfigError, match="difficulties 'impossible'"):
        grpo_rows(options(dataset, difficulties="impossible"))


def test_trace_variant_filter_keeps_the_named_routes(dataset):
    import datasets

    traces = datasets.load_dataset(str(dataset), "traces", split="train")
    wanted = {"expert-1", "code_executor"}
    kept = sft_rows(options(dataset, variants="expert-1,code_executor"))
    assert len(kept) == sum(v in wanted for v in traces["variant"]) < len(traces)
    # The routes are named for what they call: expert-1 asks that expert once, code_executor
    # runs one program.
    calls = [
        [c["function"]["name"] for m in row["messages"] for c in m["tool_calls"] or []]
        for row in kept
    ]
    assert any(c == ["ask_expert"] for c in calls) and any(c == ["code_executor"] for c in calls)
    assert all(c in (["ask_expert"], ["code_executor"]) for c in calls)


def test_top_layers_only_get_gradients():
    model, tokenizer = load("tiny-random")
    total = sum(p.numel() for p in model.parameters())
    top = model.model.layers[-1]
    expected = sum(p.numel() for p in top.parameters()) + model.model.norm.weight.numel()
    assert train_top_layers(model, 1) == expected < total
    ids = torch.tensor([tokenizer.encode("<|im_start|>user\nhello<|im_end|>")])
    model(input_ids=ids, labels=ids).loss.backward()
    for name, parameter in model.named_parameters():
        has_grad = parameter.grad is not None and bool(parameter.grad.abs().sum() > 0)
        assert has_grad == (name.startswith("model.layers.1.") or name == "model.norm.weight")
    with pytest.raises(ConfigError, match=r"trainable_layers must be 1\.\.2"):
        train_top_layers(model, 3)


def grpo_config(**kw):
    base = dict(
        use_vllm=False,
        top_p=1.0,
        top_k=0,
        min_p=None,
        repetition_penalty=1.0,
        generation_kwargs=None,
    )
    return SimpleNamespace(**{**base, **kw})


def test_cached_generation_refuses_sampling_settings_it_would_ignore():
    check_cached_generation(grpo_config())
    with pytest.raises(ConfigError, match="top_p, repetition_penalty"):
        check_cached_generation(grpo_config(top_p=0.9, repetition_penalty=1.1))
    with pytest.raises(ConfigError, match="use_vllm"):
        check_cached_generation(grpo_config(use_vllm=True))


def test_cached_generation_returns_what_trl_plain_path_returns():
    """Same contract as TRL's path: per prompt, new ids up to and including the stop token (at
    most max_completion_length), no logprobs; greedy-equivalent at a near-zero temperature."""
    from accelerate import Accelerator

    model, tokenizer = load("tiny-random")
    model = model.double()
    trainer = SimpleNamespace(
        model_wrapped=model,
        accelerator=Accelerator(cpu=True),
        eos_token_ids=[tokenizer.eos_token_id],
        _tokenizer=tokenizer,
        max_completion_length=6,
        temperature=1e-6,
    )
    prompts = [tokenizer.encode("<|im_start|>user\n" + t) for t in ("hi", "what is 2+2?")]
    ids, logprobs = CachedGenerationMixin._generate_single_turn(trainer, prompts, None, {}, 1)
    assert logprobs is None and len(ids) == 2
    for prompt, new in zip(prompts, ids, strict=True):
        expected = model.generate(
            torch.tensor([prompt]),
            max_new_tokens=6,
            do_sample=False,
            eos_token_id=tokenizer.eos_token_id,
            pad_token_id=tokenizer.pad_token_id,
        )[0, len(prompt) :].tolist()
        assert new == expected
