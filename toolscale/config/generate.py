"""The options of one `toolscale generate` run: the resolved config saved in run.json."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from toolscale.config.option import Extra, option
from toolscale.config.run_options import RunOptions
from toolscale.config.teacher import TeacherOptions
from toolscale.core.contract import ToolPrice
from toolscale.economics.preferences import DEFAULT_SPREAD, parse_spread
from toolscale.economics.prices import (
    DEFAULT_SCHEDULES,
    Economics,
    check_dropout,
    parse_schedules,
    schedule_dump,
)
from toolscale.judge.rewards import RewardConfig
from toolscale.tools.expert_endpoints import load_endpoints

CACHE_DIR = Path(".toolscale", "cache")  # under OUT, unless --cache-dir


def _names(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _schedules(text: str) -> list[str]:
    parse_schedules(text)  # an unknown name or a bad file is one error line here
    return _names(text)


def _dropout(value: float) -> float:
    check_dropout(value)
    return value


# generate's options beyond GenerateConfig's fields: tau2 task selection and the reward, which
# `toolscale.pipeline.generate_options.generate_config` turns into the config's domains and
# RewardConfig.
GENERATE_EXTRA = (
    Extra("split", str | None, None, "tau2 domains: only the tasks of this split (docs/tau2.md)."),
    Extra(
        "tau2_tasks",
        Path | None,
        None,
        "tau2 domains: tasks from this tau2 task file or ToolScale rows file.",
    ),
    Extra("reward_weights", str, "", 'Reward weights, e.g. "w_o=1,w_e=1,w_p=1" (the default).'),
    Extra(
        "reward_components",
        str,
        "",
        'Extra reward components, e.g. "brevity=my_rewards:brevity@0.5" (docs/rewards.md).',
    ),
    Extra(
        "reward_options",
        str,
        "",
        'Other reward settings, e.g. "efficiency=cost" (docs/rewards.md).',
    ),
)


@dataclass(frozen=True)
class GenerateConfig(RunOptions):
    # Domain names (the command line's comma-separated text, tau2 split and task file applied).
    domains: list[str] = option(
        help='Comma-separated domain names, or "all".', cli_type=str, cli_default="all"
    )
    num_tasks: int = option(help="Tasks in total, split over the domains.", cli_default=200)
    teacher: str = option("reference", help="Who plays the agent: reference, openai or local.")
    detours: bool = option(False, help="Also play correct but costlier routes.")
    # The verifier replays what a model did; the pipeline's own routes (the reference teacher's,
    # the oracle's) ran on a fresh state already, their outcomes being that replay. This replays
    # them too: a check that the sandbox gives the same outcomes twice. Changes no row.
    double_check: bool = option(
        False, help="Replay the reference and oracle routes in the verifier too (a check)."
    )
    seed: int = option(0, help="Run seed; every task derives from it.")
    # With --resume: redo the chunks of a domain whose code changed since they were made
    # (toolscale.pipeline.chunk.check_code); not a resume key.
    redo_changed: bool = option(
        False, help="With --resume: redo the chunks of domains whose code changed."
    )
    workers: int = option(2, help="Sandbox worker processes.")
    chunk_size: int = option(50, help="Tasks per shard (the unit of --resume).")
    call_timeout_s: float = option(
        15.0, help="Seconds a tool call may run before it fails as timed out.", flag="call_timeout"
    )
    # Preference profiles drawn per task, with relative weights (toolscale.economics.preferences).
    profiles: dict[str, float] = option(
        help='Preference profiles and weights, e.g. "none=1,hurry=2", or "all".',
        factory=lambda: dict(DEFAULT_SPREAD),
        cli_type=str,
        cli_default="all",
        parse=parse_spread,
    )
    reward: RewardConfig = field(default_factory=RewardConfig, kw_only=True)
    # Price schedules (names or YAML paths) each task draws one of, and the tool dropout.
    price_schedules: list[str] = option(
        help="Price schedules each task draws one of: standard, open_weights, premium, seed, "
        "or a schedule YAML file (docs/rewards.md).",
        factory=lambda: list(DEFAULT_SCHEDULES),
        cli_type=str,
        cli_default=",".join(DEFAULT_SCHEDULES),
        parse=_schedules,
    )
    tool_dropout: float = option(
        0.0, help="Chance that a task drops each tool its gold route does not use.", parse=_dropout
    )
    # The share of samples that may fail (a domain bug each) before the run fails.
    max_sample_failure_share: float = option(
        0.1, help="Share of samples that may fail (domain bugs) before the run fails."
    )
    # Play the accepted tasks of a `toolscale synthesize` output instead of sampling.
    tasks_from: Path | None = option(
        None, help="Play the accepted tasks of a toolscale synthesize output instead."
    )
    # Where the chunks run: "local" (this process) or "ray" (toolscale.pipeline.ray). Neither
    # changes a row, so neither is a resume key.
    executor: str = option(
        "local", help="Where chunks run: local (this process) or ray (docs/scale.md)."
    )
    ray_address: str | None = option(
        None, help="Ray cluster HOST:PORT or auto [--executor ray: a local Ray instance]."
    )
    # The LLM judge of tau2's nl_assertions (toolscale.tau2.nl_assertions); unset: not judged.
    # The URL defaults to the teacher's endpoints, the key variable to api_key_env.
    judge_base_url: str | None = option(None, help="Judge endpoint [the teacher's --base-url].")
    judge_model: str | None = option(
        None, help="tau2 domains: LLM judge model for nl_assertions (docs/tau2.md)."
    )
    judge_api_key_env: str | None = option(None, help="Judge key variable [--api-key-env].")
    # Options that must not change between a run and its --resume.
    RESUME_KEYS = (
        "domains",
        "num_tasks",
        "teacher",
        "detours",
        "seed",
        "chunk_size",
        "profiles",
        "reward",
        "schedules",
        "tool_dropout",
        "shard",
        "tasks_from",
        "judge_model",
        *TeacherOptions.TEACHER_RESUME_KEYS,
    )

    def resolved(self) -> dict[str, Any]:
        values = self.run_resolved("tasks_from")
        values["reward"] = self.reward.as_json()
        values["temperature"] = self.effective_temperature()
        values["user"] = self.effective_user(self.teacher)
        values["concurrency"] = self.effective_concurrency(self.teacher == "local")
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        local = self.teacher == "local"
        values["max_tokens"] = self.effective_max_tokens(local)
        values["endpoint_concurrency"] = self.effective_endpoint_concurrency(local)
        # The schedules in full, so that `validate` rebuilds every price table from run.json.
        values["schedules"] = schedule_dump(self.economics.schedules)
        values["model_prices"] = {a: p.as_dict() for a, p in self.economics.models.items()}
        return values

    @cached_property
    def economics(self) -> Economics:
        """The run's price settings, read once (schedule files and the experts file)."""
        models: dict[str, ToolPrice] = {}
        for alias, endpoint in (load_endpoints(self.experts) if self.experts else {}).items():
            models[alias] = ToolPrice(
                input_per_m=endpoint.input_per_m, output_per_m=endpoint.output_per_m
            )
        return Economics(
            tuple(parse_schedules(",".join(self.price_schedules))), self.tool_dropout, models
        )
