"""GRPO rollouts generated with the prompts' shared head encoded once (CPU runs).

The rollouts of one GRPO batch share a long head (system prompt, price table, tool schemas) and
TRL's plain generation path encodes it again for every rollout and every tool turn. This mixin
replaces that path, `GRPOTrainer._generate_single_turn`, with `trainer.decode.continue_prompts`:
the head is encoded once per call (not across calls: the weights change between steps), tails
and new tokens are batched, and sampling is TRL's plain sampling at its temperature. It returns
what TRL's own path returns there (completion ids up to and including the end-of-turn token,
no logprobs), so TRL's tool loop, truncation and loss are untouched.

Only for plain sampling on one device without vLLM: `check_cached_generation` says, before any
model is loaded, which setting rules it out. Not for vision models.
"""

from __future__ import annotations

from typing import Any

from toolscale.core.errors import ConfigError
from trainer.decode import continue_prompts


def check_cached_generation(config: Any) -> None:
    """Raise a ConfigError naming the GRPOConfig settings that plain cached sampling ignores."""
    unsupported = {
        "use_vllm": bool(config.use_vllm),
        "use_transformers_continuous_batching": bool(
            getattr(config, "use_transformers_continuous_batching", False)
        ),
        "top_p": config.top_p not in (None, 1.0),
        "top_k": config.top_k not in (None, 0),
        "min_p": config.min_p is not None,
        "repetition_penalty": config.repetition_penalty not in (None, 1.0),
        "generation_kwargs": bool(config.generation_kwargs),
    }
    bad = [name for name, is_set in unsupported.items() if is_set]
    if bad:
        raise ConfigError(
            f"shared_head_generation samples plainly at the temperature on one device; it cannot "
            f"honour {', '.join(bad)}: unset them or set shared_head_generation: false"
        )


class CachedGenerationMixin:
    """Put before TRL's GRPOTrainer (or a subclass) in the bases."""

    # Set by GRPOTrainer's __init__ (declared only: the mixin adds no attributes).
    model_wrapped: Any
    accelerator: Any
    eos_token_ids: list[int]
    _tokenizer: Any
    max_completion_length: int
    temperature: float

    def _generate_single_turn(
        self,
        prompt_ids: list[list[int]],
        images: list | None,
        multimodal_fields: dict[str, Any] | None,
        num_generations: int,
        has_tool_images: bool = False,
    ) -> tuple[list[list[int]], list[list[float]] | None]:
        if (images and any(images)) or multimodal_fields:
            return super()._generate_single_turn(  # type: ignore[misc]
                prompt_ids, images, multimodal_fields, num_generations, has_tool_images
            )
        import torch
        from trl.models import unwrap_model_for_generation

        with (
            unwrap_model_for_generation(self.model_wrapped, self.accelerator) as model,
            torch.no_grad(),
        ):
            completions = continue_prompts(
                model,
                [list(ids) for ids in prompt_ids],
                set(self.eos_token_ids),
                self._tokenizer.pad_token_id,
                self.max_completion_length,
                temperature=self.temperature,
            )
        return completions, None
