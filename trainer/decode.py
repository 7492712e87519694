"""Continue a batch of token prompts with one model, reusing the KV cache of their shared prefix.

Evaluation prompts of one task family share a long head (system prompt, price table, tool
schemas: ~1,200 SmolLM2 tokens) and differ in a short tail (the task, the turns so far). Encoding
the head once and the tails as one batch makes a CPU evaluation several times faster than
`model.generate` one prompt at a time, which encodes every head again at every turn.

How: the head is encoded once (batch of one, kept in `store` for later calls) and copied for each
row; each tail is left-padded to the longest, its pads masked out and its positions numbered on
from the head, so every row sees exactly its own prompt; then one token per row per step (greedy,
or sampled at `temperature` from a seeded generator), rows leaving the batch as they end. Not a
general generation API: no top-p, no repetition penalty, no beam search.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from typing import Any


def shared_length(prompts: Sequence[Sequence[int]]) -> int:
    """Length of the common head of `prompts`, leaving every prompt at least one token of its own.

    >>> shared_length([[1, 2, 3, 4], [1, 2, 5], [1, 2, 3]])
    2
    >>> shared_length([[7, 8], [7, 8]])
    1
    """
    limit = min(len(p) for p in prompts) - 1
    length = 0
    while length < limit and all(p[length] == prompts[0][length] for p in prompts):
        length += 1
    return length


def _forward(model: Any, cache: Any, **inputs: Any) -> tuple[Any, Any]:
    """(cache, last logits) of one forward pass; transformers >= 5.2x names the cache `cache`,
    earlier versions `past_key_values`."""
    name = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    out = model(**inputs, **{name: cache}, use_cache=True)
    return out["cache"] if "cache" in out else out["past_key_values"], out.logits[:, -1]


def _pick(logits: Any, temperature: float, generator: Any) -> Any:
    import torch

    if temperature <= 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(1)


def continue_prompts(
    model: Any,
    prompts: Sequence[Sequence[int]],
    stop_ids: set[int],
    pad_id: int,
    max_new_tokens: int,
    temperature: float = 0.0,
    generator: Any = None,
    store: dict[tuple[int, ...], Any] | None = None,
) -> list[list[int]]:
    """The new tokens of each prompt, up to and including its first stop token, or
    `max_new_tokens` of them. `store` keeps encoded heads between calls (give the same dict to
    every call of one evaluation; it holds one cache per distinct head)."""
    import torch

    if not prompts:
        return []
    n = len(prompts)
    head_length = shared_length(prompts)
    if head_length == 0 and n > 1:  # nothing shared: a padded row would see no token at all
        alone = (stop_ids, pad_id, max_new_tokens, temperature, generator)
        return [continue_prompts(model, [p], *alone)[0] for p in prompts]
    head = tuple(prompts[0][:head_length])
    store = {} if store is None else store
    with torch.no_grad():
        if head_length and head not in store:
            store[head], _ = _forward(model, None, input_ids=torch.tensor([head]))
        cache = None
        if head_length:
            cache = copy.deepcopy(store[head])
            cache.batch_repeat_interleave(n)
        tails = [list(p[head_length:]) for p in prompts]
        width = max(len(t) for t in tails)
        input_ids = torch.tensor([[pad_id] * (width - len(t)) + t for t in tails])
        tail_mask = torch.tensor([[0] * (width - len(t)) + [1] * len(t) for t in tails])
        mask = torch.cat([torch.ones(n, head_length, dtype=torch.long), tail_mask], dim=1)
        positions = torch.tensor(
            [
                [head_length] * (width - len(t)) + list(range(head_length, head_length + len(t)))
                for t in tails
            ]
        )
        cache, logits = _forward(
            model, cache, input_ids=input_ids, attention_mask=mask, position_ids=positions
        )
        next_position = torch.tensor([head_length + len(t) for t in tails])
        new: list[list[int]] = [[] for _ in range(n)]
        alive = list(range(n))  # the prompt index of each row still in the batch
        for step in range(max_new_tokens):
            tokens = _pick(logits, temperature, generator)
            keep = []
            for row, token in enumerate(tokens.tolist()):
                new[alive[row]].append(token)
                if token not in stop_ids:
                    keep.append(row)
            if not keep or step == max_new_tokens - 1:
                break
            if len(keep) < len(alive):
                index = torch.tensor(keep)
                cache.batch_select_indices(index)
                mask, tokens, next_position = mask[index], tokens[index], next_position[index]
                alive = [alive[row] for row in keep]
            mask = torch.cat([mask, torch.ones(len(alive), 1, dtype=mask.dtype)], dim=1)
            cache, logits = _forward(
                model,
                cache,
                input_ids=tokens.unsqueeze(1),
                attention_mask=mask,
                position_ids=next_position.unsqueeze(1),
            )
            next_position = next_position + 1
    return new
