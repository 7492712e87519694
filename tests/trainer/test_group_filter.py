"""The group filter: a group whose reward std is below the threshold contributes no gradient, a
group above it keeps TRL's advantages, and group-normalised rewards see whole groups only."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch

from toolscale.core.errors import ConfigError
from trainer.group_filter import check_whole_groups, kept_groups
from trainer.model import load

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


def test_kept_groups_by_std_against_the_threshold():
    rewards = torch.tensor([0.0, 1.0, 0.50, 0.52, 0.3, 0.3])
    # std (unbiased, as TRL): 0.7071, 0.0141, 0.0
    assert kept_groups(rewards, 2, 0.1).tolist() == [True, True, False, False, False, False]
    assert kept_groups(rewards, 2, 0.01).tolist() == [True, True, True, True, False, False]
    assert kept_groups(rewards, 2, 0.0).all()
    assert kept_groups(rewards, 3, 0.1).tolist() == [True] * 3 + [True] * 3  # 0.50, 0.12


def test_whole_groups_pass_and_split_or_mixed_groups_are_named():
    a, b = [{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]
    check_whole_groups([a, a, b, b], 2)
    with pytest.raises(ConfigError, match=r"rank 1 holds 3 rollouts.*multiple of num_generations"):
        check_whole_groups([a, a, b], 2, rank=1)
    with pytest.raises(ConfigError, match="different prompts"):
        check_whole_groups([a, b, b, a], 2)


def test_the_config_check_rejects_partial_groups_per_rank():
    from trainer.grpo import check_batch

    config = SimpleNamespace(
        per_device_train_batch_size=3, steps_per_generation=1, num_generations=2
    )
    with pytest.raises(ConfigError, match="not a multiple of num_generations = 2"):
        check_batch(SimpleNamespace(reward_variant="toolorchestra"), config)
    check_batch(SimpleNamespace(reward_variant="linear"), config)  # TRL normalises globally


# Rollout i's reward: group 0 (prompt A) differs by 0.02 only, group 1 (prompt B) by 1.0.
REWARDS = [0.50, 0.52, 0.0, 1.0]


def fixed_reward(prompts, completions, **_):
    return REWARDS[: len(prompts)]


def scored_batch(tmp_path, threshold: float):
    """A FilteredGRPOTrainer on a tiny model; one generation batch scored (A, A, B, B)."""
    from datasets import Dataset
    from trl import GRPOConfig

    from trainer.group_filter import FilteredGRPOTrainer

    model, tokenizer = load("tiny-random")
    config = GRPOConfig(
        output_dir=str(tmp_path / "run"),
        use_cpu=True,
        bf16=False,
        report_to="none",
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=8,
        loss_type="dapo",
        beta=0.0,
        seed=0,
    )
    rows = Dataset.from_dict({"prompt": ["Say A.", "Say B."]})
    trainer = FilteredGRPOTrainer(
        model=model,
        processing_class=tokenizer,
        args=config,
        train_dataset=rows,
        reward_funcs=[fixed_reward],
        group_threshold=threshold,
        whole_groups=True,
    )
    trainer.current_gradient_accumulation_steps = 1  # set by train(); the loss reads it
    trainer.model.train()
    batch = [{"prompt": "Say A."}] * 2 + [{"prompt": "Say B."}] * 2
    return trainer, trainer._generate_and_score_completions(batch)


def gradient(trainer, inputs) -> list[torch.Tensor]:
    trainer.model.zero_grad()
    trainer.compute_loss(trainer.model, inputs).backward()
    return [p.grad.clone() for p in trainer.model.parameters() if p.grad is not None]


def rows(inputs: dict, index: slice) -> dict:
    return {
        k: v[index] if isinstance(v, torch.Tensor) and v.dim() > 0 else v for k, v in inputs.items()
    }


def test_a_group_below_the_threshold_contributes_no_gradient(tmp_path):
    trainer, out = scored_batch(tmp_path, threshold=0.1)
    # Group A (std 0.014) is dropped: zero advantages, out of the loss mask.
    assert out["advantages"][:2].tolist() == [0.0, 0.0]
    assert out["tool_mask"][:2].sum() == 0
    # Group B (std 0.707) keeps TRL's advantages: (r - 0.5) / (0.7071 + 1e-4).
    assert out["advantages"][2:].tolist() == pytest.approx([-0.7070, 0.7070], abs=1e-3)
    assert trainer._metrics["train"]["toolscale/groups_dropped"] == [0.5]
    # The whole batch's gradient equals that of group B alone (same token normaliser).
    full, only_b = gradient(trainer, out), gradient(trainer, rows(out, slice(2, 4)))
    assert any(g.abs().sum() > 0 for g in full)
    assert all(torch.allclose(f, b, atol=1e-7) for f, b in zip(full, only_b, strict=True))


def test_without_the_filter_the_same_group_moves_the_weights(tmp_path):
    trainer, out = scored_batch(tmp_path, threshold=0.0)
    # TRL alone normalises a 0.02 spread into full-size advantages.
    assert out["advantages"][:2].tolist() == pytest.approx([-0.7020, 0.7020], abs=1e-2)
    assert trainer._metrics["train"]["toolscale/groups_dropped"] == [0.0]
    full, only_b = gradient(trainer, out), gradient(trainer, rows(out, slice(2, 4)))
    assert not all(torch.allclose(f, b, atol=1e-7) for f, b in zip(full, only_b, strict=True))


def test_the_surviving_groups_are_normalised_as_a_batch_without_the_dropped_ones(tmp_path):
    """TRL counted every token of the batch in `num_items_in_batch` before the filter ran; the
    filter counts the survivors' only, so the step equals the step of a batch that never held
    the dropped group (same completions, its own token count), not a smaller one."""
    trainer, out = scored_batch(tmp_path, threshold=0.1)
    mask = out["completion_mask"] * out["tool_mask"]
    assert out["num_items_in_batch"] == mask[2:].sum() == out["completion_mask"][2:].sum()
    alone = rows(out, slice(2, 4))
    alone["tool_mask"] = torch.ones_like(alone["completion_mask"])
    alone["num_items_in_batch"] = alone["completion_mask"].sum()  # a batch of group B only
    full, only_b = gradient(trainer, out), gradient(trainer, alone)
    assert any(g.abs().sum() > 0 for g in full)
    assert all(torch.allclose(f, b, atol=1e-7) for f, b in zip(full, only_b, strict=True))


def test_a_rollout_without_a_reward_is_dropped_alone(tmp_path):
    """A rollout every reward function scored None (a crashed tool) has TRL's advantage 0;
    the filter also takes its tokens out of the loss and of the normaliser."""
    global REWARDS
    saved, REWARDS = REWARDS, [0.0, 1.0, None, 1.0]
    try:
        _trainer, out = scored_batch(tmp_path, threshold=0.1)
    finally:
        REWARDS = saved
    assert out["tool_mask"][2].sum() == 0 and out["tool_mask"][:2].sum() > 0
    assert out["num_items_in_batch"] == (out["completion_mask"] * out["tool_mask"]).sum()


def test_a_per_sequence_loss_is_refused_with_the_filter(tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig

    from trainer.group_filter import FilteredGRPOTrainer

    model, tokenizer = load("tiny-random")
    config = GRPOConfig(
        output_dir=str(tmp_path / "run"),
        use_cpu=True,
        bf16=False,
        report_to="none",
        per_device_train_batch_size=2,
        num_generations=2,
        loss_type="grpo",
    )
    rows = Dataset.from_dict({"prompt": ["Say A."]})
    with pytest.raises(ConfigError, match="loss_type 'grpo' averages over every rollout"):
        FilteredGRPOTrainer(
            model=model,
            processing_class=tokenizer,
            args=config,
            train_dataset=rows,
            reward_funcs=[fixed_reward],
        )
