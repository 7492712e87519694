"""Batched continuation with a shared head cache equals decoding each prompt alone, token by
token, with the whole sequence recomputed at every step (float64, so no near-tie flips)."""

from __future__ import annotations

import torch

from trainer.decode import continue_prompts, shared_length
from trainer.model import byte_tokenizer, tiny_random_model


def reference(model, prompt: list[int], stop: set[int], max_new_tokens: int) -> list[int]:
    """Greedy decoding without any cache: a full forward pass for every new token."""
    ids, new = list(prompt), []
    with torch.no_grad():
        for _ in range(max_new_tokens):
            token = int(model(input_ids=torch.tensor([ids])).logits[0, -1].argmax())
            new.append(token)
            ids.append(token)
            if token in stop:
                break
    return new


def tiny_model():
    tokenizer = byte_tokenizer()
    model = tiny_random_model(tokenizer, seed=3, hidden=64).double().eval()
    return model, tokenizer


def test_shared_head_batch_decodes_each_prompt_exactly_as_alone():
    model, tokenizer = tiny_model()
    head = tokenizer.encode("<|im_start|>system\nYou add numbers with tools.<|im_end|>\n")
    tails = ["<|im_start|>user\n2+2?", "<|im_start|>user\nWhat is 17 * 4 + 3, exactly?", "x"]
    prompts = [head + tokenizer.encode(t) for t in tails]
    assert shared_length(prompts) == len(head)
    # A stop token the random model does emit, so rows leave the batch at different steps.
    free = [reference(model, p, set(), 12) for p in prompts]
    stop = {free[1][4]}
    expected = [reference(model, p, stop, 12) for p in prompts]
    assert len({len(e) for e in expected}) > 1  # rows really end at different steps
    assert max(len(e) for e in expected) > 3
    store: dict = {}
    got = continue_prompts(model, prompts, stop, tokenizer.pad_token_id, 12, store=store)
    assert got == expected
    assert list(store) == [tuple(head)]
    # A second call with the same head reuses the stored one and still decodes exactly.
    again = continue_prompts(model, prompts[::2], stop, tokenizer.pad_token_id, 12, store=store)
    assert again == expected[::2] and len(store) == 1


def test_prompts_with_nothing_shared_are_decoded_one_by_one():
    model, tokenizer = tiny_model()
    prompts = [tokenizer.encode("abc"), tokenizer.encode("xyz0")]
    assert shared_length(prompts) == 0
    got = continue_prompts(model, prompts, set(), tokenizer.pad_token_id, 5)
    assert got == [reference(model, p, set(), 5) for p in prompts]


def test_sampling_is_reproducible_from_the_seed_and_differs_from_greedy():
    model, tokenizer = tiny_model()
    prompts = [tokenizer.encode("<|im_start|>user\n" + t) for t in ("a", "bb", "ccc")]

    def sample(seed: int) -> list[list[int]]:
        generator = torch.Generator().manual_seed(seed)
        return continue_prompts(
            model, prompts, set(), tokenizer.pad_token_id, 8, temperature=1.0, generator=generator
        )

    assert sample(0) == sample(0)
    greedy = continue_prompts(model, prompts, set(), tokenizer.pad_token_id, 8)
    assert sample(0) != greedy
