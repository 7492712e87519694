"""GRPO with ToolOrchestra's group filter: a group whose rewards barely differ trains nothing.

A group is the `num_generations` rollouts of one prompt. When the standard deviation of their
total reward (the weighted sum TRL normalises; TRL's unbiased std) is below `threshold` (default
0.1, ToolOrchestra's), the group is dropped from the update: its advantages are set to 0 and its
tokens are taken out of the loss mask, so neither the policy term nor a KL term (beta > 0) gives
it any gradient. A rollout without a reward (every reward function returned None: a crashed tool,
`trainer.reward_functions`) is dropped the same way. The token normaliser of the step
(`num_items_in_batch`, which TRL computed over the whole batch before) is computed again over the
surviving tokens, so a step with dropped groups is the step of a batch without them, not a
smaller one. That normaliser is what the token-level losses divide by (`dapo`, `cispo`, `vespo`;
`bnpo` divides by each micro-batch's own mask); the per-sequence losses (`grpo`, `sapo`, `luspo`,
`dr_grpo`) average over every row, dropped ones included, so the filter refuses them.
The share of groups dropped is logged every step as `toolscale/groups_dropped`.

Group-normalised rewards (`reward_variant: toolorchestra`) are computed by the reward function on
the rollouts one rank holds, so every rank must hold whole groups; `whole_groups=True` checks that
on every batch and raises a ConfigError that says what to change.

TRL has no public hook between scoring and the update, so this subclass overrides two methods of
TRL 1.16 (the version `pyproject.toml` pins for training): `_calculate_rewards`, right after which
TRL computes advantages inside `_generate_and_score_completions`, records which groups to keep;
`_generate_and_score_completions` applies it to this rank's slice of the returned batch. If a TRL
version stops calling the first from the second, the second raises rather than train unfiltered.
"""

from __future__ import annotations

from typing import Any, cast

import torch
from trl import GRPOTrainer
from trl.trainer.utils import nanstd

from toolscale.core.errors import ConfigError

DEFAULT_THRESHOLD = 0.1
# Losses normalised by a token count the filter can set (`num_items_in_batch`) or by each
# micro-batch's own mask; the others average over rows, dropped ones included.
TOKEN_LEVEL_LOSSES = ("dapo", "cispo", "vespo", "bnpo")


def kept_groups(rewards: torch.Tensor, num_generations: int, threshold: float) -> torch.Tensor:
    """One bool per completion: whether its group's reward std is at least `threshold`.

    >>> kept_groups(torch.tensor([0.0, 1.0, 0.50, 0.52]), 2, 0.1).tolist()
    [True, True, False, False]
    """
    if num_generations < 2:
        return torch.ones_like(rewards, dtype=torch.bool)
    std = nanstd(rewards.view(-1, num_generations), dim=1)
    return (std >= threshold).repeat_interleave(num_generations)


def check_whole_groups(prompts: list[Any], num_generations: int, rank: int = 0) -> None:
    """Raise unless `prompts` (one rank's batch, in order) is whole groups of one prompt each."""
    fix = (
        "make per_device_train_batch_size * steps_per_generation (gradient_accumulation_steps by "
        f"default) a multiple of num_generations ({num_generations})"
    )
    if len(prompts) % num_generations:
        raise ConfigError(
            f"rank {rank} holds {len(prompts)} rollouts, not whole groups of {num_generations}, "
            f"so its group-normalised rewards would use partial groups; {fix}"
        )
    for start in range(0, len(prompts), num_generations):
        if any(p != prompts[start] for p in prompts[start : start + num_generations]):
            raise ConfigError(
                f"rank {rank} holds a group of rollouts {start}..{start + num_generations - 1} "
                f"from different prompts, so its group-normalised rewards would mix tasks; {fix}"
            )


class FilteredGRPOTrainer(GRPOTrainer):
    """TRL's GRPOTrainer with the group filter and, optionally, the whole-group check."""

    def __init__(
        self,
        *args: Any,
        group_threshold: float = DEFAULT_THRESHOLD,
        whole_groups: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        if group_threshold > 0 and self.loss_type not in TOKEN_LEVEL_LOSSES:
            raise ConfigError(
                f"the group filter (group_std_threshold {group_threshold}) keeps the step's "
                f"normalisation only with a token-level loss; loss_type {self.loss_type!r} "
                f"averages over every rollout, dropped ones included. Use loss_type one of "
                f"{', '.join(TOKEN_LEVEL_LOSSES)}, or group_std_threshold 0"
            )
        self.group_threshold = group_threshold
        self.whole_groups = whole_groups
        self._kept: torch.Tensor | None = None

    def _training(self) -> bool:
        # Trainer types its model Optional; by the time TRL generates it holds one.
        return cast(torch.nn.Module, self.model).training

    def _group_size(self) -> int:
        # GRPOConfig types both sizes Optional; GRPOTrainer has resolved them to ints.
        return cast(int, self.num_generations if self._training() else self.num_generations_eval)

    def _calculate_rewards(
        self,
        inputs: list[dict[str, Any]],
        prompts: list[Any],
        completions: list[Any],
        completion_ids_list: list[list[int]],
    ) -> torch.Tensor:
        size = self._group_size()
        if self.whole_groups:
            check_whole_groups(prompts, size, self.accelerator.process_index)
        per_function = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        weights = self.reward_weights.to(per_function.device).unsqueeze(0)
        totals = (per_function * weights).nansum(dim=1)
        totals[torch.isnan(per_function).all(dim=1)] = torch.nan
        self._kept = kept_groups(totals, size, self.group_threshold) & ~torch.isnan(totals)
        return per_function

    def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        output = super()._generate_and_score_completions(inputs)
        kept, self._kept = self._kept, None
        if kept is None:
            raise RuntimeError(
                "TRL did not call _calculate_rewards inside _generate_and_score_completions: "
                "this TRL version is not the one the group filter supports (trl 1.16)"
            )
        local = output["advantages"].shape[0]
        start = self.accelerator.process_index * local
        keep = kept[start : start + local].to(output["advantages"].device)
        advantages = output["advantages"]
        shape = (-1,) + (1,) * (advantages.dim() - 1)  # (B,) or, in subclasses, (B, T)
        output["advantages"] = advantages * keep.to(advantages.dtype).view(shape)
        loss_mask = output.get("tool_mask", torch.ones_like(output["completion_mask"]))
        output["tool_mask"] = loss_mask * keep.to(loss_mask.dtype).unsqueeze(1)
        surviving = (output["completion_mask"] * output["tool_mask"]).sum()
        output["num_items_in_batch"] = self.accelerator.gather(surviving).sum()
        mode = "train" if self._training() else "eval"
        dropped = 1.0 - kept.float().view(-1, self._group_size())[:, 0].mean().item()
        self._metrics[mode]["toolscale/groups_dropped"].append(dropped)
        return output
