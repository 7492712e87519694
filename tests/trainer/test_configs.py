"""Every shipped training config parses with the installed TRL and accelerate, and the 8B recipe
fits together: batch sizes divide into groups on every rank, the multinode launcher is set, and
rollouts use the mode that does not desynchronise ranks in the tool loop."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "trainer" / "configs"
ACCELERATE = sorted((CONFIGS / "accelerate").glob("*.yaml"))
CPU_ONLY = ["--use_cpu", "true", "--bf16", "false"]  # parse GPU configs on this machine
# The trainer refuses, while it reads its options, a Hub model that is not cached offline: the
# 8B recipe's Qwen/Qwen3-8B is named over by a model that exists here.
HERE = ["--model", "tiny-random"]


def parse_grpo(name: str):
    from trainer.grpo import parse

    argv = ["--config", str(CONFIGS / name), "--dataset", "x", "--output_dir", "/tmp/x"]
    return parse([*argv, *CPU_ONLY, *HERE])


def accelerate_config(path: Path):
    from accelerate.commands.config.config_args import load_config_from_file

    return load_config_from_file(str(path))


@pytest.mark.parametrize("name", ["cpu-smoke.yaml", "orchestrator-8b.yaml"])
def test_grpo_configs_parse(name):
    options, config = parse_grpo(name)
    assert config.max_tool_calling_iterations >= 4
    assert options.group_std_threshold == 0.1


def test_sft_config_parses_with_assistant_only_loss():
    from trainer.sft import parse

    argv = ["--config", str(CONFIGS / "sft-cpu.yaml"), "--dataset", "x", "--output_dir", "/tmp/x"]
    _, config = parse(argv)
    assert config.assistant_only_loss


@pytest.mark.parametrize("path", ACCELERATE, ids=lambda p: p.name)
def test_accelerate_configs_load(path):
    cluster = accelerate_config(path)
    assert cluster.distributed_type == "DEEPSPEED"
    assert cluster.deepspeed_config["zero_stage"] == 3
    assert cluster.num_processes % cluster.num_machines == 0
    if cluster.num_machines > 1:  # without it accelerate builds a pdsh launch (--hostfile None)
        assert cluster.deepspeed_config.get("deepspeed_multinode_launcher") == "standard"


@pytest.mark.parametrize("path", ACCELERATE, ids=lambda p: p.name)
def test_8b_batches_divide_into_whole_groups(path):
    from trainer.grpo import check_batch

    options, config = parse_grpo("orchestrator-8b.yaml")
    processes = accelerate_config(path).num_processes
    per_device, accumulation = (
        config.per_device_train_batch_size,
        config.gradient_accumulation_steps,
    )
    global_batch = per_device * processes * accumulation
    assert global_batch % config.num_generations == 0, (global_batch, config.num_generations)
    # Each rank's generation batch holds whole groups (the group-normalised reward needs them).
    assert config.steps_per_generation == accumulation
    assert (per_device * config.steps_per_generation) % config.num_generations == 0
    check_batch(options, config)


def test_8b_rollouts_avoid_the_multi_rank_tool_loop_deadlock():
    options, config = parse_grpo("orchestrator-8b.yaml")
    assert options.reward_variant == "toolorchestra"
    # Colocated vLLM, one engine per rank, no collective inside generation.
    assert config.use_vllm and config.vllm_mode == "colocate"
    assert config.vllm_tensor_parallel_size == 1 and not config.vllm_enable_sleep_mode
    assert config.vllm_max_model_length >= config.max_completion_length
    assert config.beta == 0.0 and config.log_completions


def test_the_old_gradient_checkpointing_flag_is_not_overridden_by_the_config():
    _, config = parse_grpo("cpu-smoke.yaml")
    assert not config.activation_checkpointing
    from trainer.grpo import parse

    argv = ["--config", str(CONFIGS / "cpu-smoke.yaml"), "--dataset", "x", "--output_dir", "/tmp/x"]
    _, config = parse([*argv, "--gradient_checkpointing", "true"])
    assert config.activation_checkpointing


def test_8b_recipe_corrects_vllm_per_token_and_turns_thinking_off():
    """Long multi-turn rollouts: the sequence-level IS mask (TRL's default) would drop most
    12k-token rollouts; Qwen3's thinking would spend the completion budget the tool results need."""
    _, config = parse_grpo("orchestrator-8b.yaml")
    assert config.use_vllm and config.vllm_importance_sampling_correction
    assert config.vllm_importance_sampling_mode == "token_truncate"
    assert config.vllm_importance_sampling_clip_max == 3.0
    assert config.chat_template_kwargs == {"enable_thinking": False}
    assert config.max_completion_length == 12288


def test_nano_configs_parse_and_share_one_held_out_split():
    from trainer.sft import parse

    argv = ["--dataset", "x", "--output_dir", "/tmp/x"]
    options, config = parse(["--config", str(CONFIGS / "nano-orchestrator.yaml"), *argv])
    assert (options.model, options.tiny_size()) == ("tiny-random", (64, 2))
    assert config.assistant_only_loss and config.use_cpu
    grpo_options, grpo_config = parse_grpo("nano-orchestrator-grpo.yaml")
    # GRPO rolls out only training-side tasks: the split SFT trained on and evaluate scores
    assert grpo_options.heldout_fraction == options.heldout_fraction == 0.2
    assert grpo_config.per_device_train_batch_size % grpo_config.num_generations == 0
