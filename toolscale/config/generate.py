"""The options of one `toolscale generate` run: the resolved config saved in run.json."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from toolscale.config.shard import Shard
from toolscale.config.teacher import TeacherOptions
from toolscale.core.contract import ToolPrice
from toolscale.judge.rewards import RewardConfig
from toolscale.sample.preferences import DEFAULT_SPREAD
from toolscale.sample.prices import DEFAULT_SCHEDULES, parse_schedules, schedule_dump
from toolscale.sample.tasks import Economics
from toolscale.tools.expert_endpoints import load_endpoints

CACHE_DIR = Path(".toolscale", "cache")  # under OUT, unless --cache-dir


@dataclass(frozen=True)
class GenerateConfig(TeacherOptions):
    domains: list[str]
    num_tasks: int
    out: Path
    teacher: str = "reference"
    detours: bool = False
    seed: int = 0
    resume: bool = False
    workers: int = 2
    chunk_size: int = 50
    call_timeout_s: float = 15.0
    # Preference profiles drawn per task, with relative weights (toolscale.sample.preferences).
    profiles: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SPREAD))
    reward: RewardConfig = field(default_factory=RewardConfig)
    # Price schedules (names or YAML paths) each task draws one of, and the tool dropout.
    price_schedules: list[str] = field(default_factory=lambda: list(DEFAULT_SCHEDULES))
    tool_dropout: float = 0.0
    # The share of samples that may fail (a domain bug each) before the run fails.
    max_sample_failure_share: float = 0.1
    # This job's part of the run (None: all of it); see toolscale.config.shard.
    shard: Shard | None = None
    # Play the accepted tasks of a `toolscale synthesize` output instead of sampling.
    tasks_from: Path | None = None
    # Where the chunks run: "local" (this process) or "ray" (toolscale.pipeline.ray). Neither
    # changes a row, so neither is a resume key.
    executor: str = "local"
    ray_address: str | None = None
    # The LLM judge of tau2's nl_assertions (toolscale.tau2.judge); unset: not judged. The URL
    # defaults to the teacher's endpoints, the key variable to api_key_env.
    judge_base_url: str | None = None
    judge_model: str | None = None
    judge_api_key_env: str | None = None
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
        values = asdict(self)
        values["out"] = str(self.out)
        values["shard"] = None if self.shard is None else str(self.shard)
        for key in ("cache_dir", "experts", "tasks_from"):
            values[key] = None if values[key] is None else str(values[key])
        values["temperature"] = self.effective_temperature()
        values["concurrency"] = self.effective_concurrency(self.teacher == "local")
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        local = self.teacher == "local"
        values["max_tokens"] = self.effective_max_tokens(local)
        values["endpoint_concurrency"] = self.effective_endpoint_concurrency(local)
        values["base_url"] = list(self.base_urls()) or None
        # The schedules in full, so that `validate` rebuilds every price table from run.json.
        values["schedules"] = schedule_dump(self.economics.schedules)
        values["model_prices"] = {a: p.as_dict() for a, p in self.economics.models.items()}
        values.pop("resume")
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
