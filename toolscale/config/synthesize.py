"""The options of one `toolscale synthesize` run, and their checks (before any request).

The endpoint options are generate's (`TeacherOptions`: URL, model, key variable, retries,
cache, budget); the solver defaults to the same endpoint. Every check here runs before the
output folder is touched or a request is sent, and fails with one line saying what to write.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolscale.config.option import option
from toolscale.config.run_options import RunOptions
from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import api_key, at_least, check_teacher
from toolscale.core.errors import ConfigError
from toolscale.core.registry import get_domain, resolve
from toolscale.economics.prices import BUILTIN, schedule_dump
from toolscale.judge.rewards import RewardConfig
from toolscale.llm.cache import RequestCache
from toolscale.sandbox.guard import check_isolation

CACHE_DIR = Path(".toolscale", "cache")
TEACHERS = ("openai", "local")
# What validate and generate --tasks-from read back: synthesized tasks are stored priced under
# the standard schedule, with no preference (a later generate run draws its own).
STORED_PROFILES = {"none": 1.0}


def _names(text: str) -> list[str]:
    return text.split(",")


@dataclass(frozen=True)
class SynthesizeConfig(RunOptions):
    domains: list[str] = option(
        help='Stateful domains, comma-separated, or "all".',
        cli_type=str,
        cli_default="railway",
        parse=_names,
    )
    num_tasks: int = option(
        help="Intents (candidate tasks) asked for, split over the domains.", cli_default=20
    )
    teacher: str = option("openai", help="Who proposes: openai or local.")
    seed: int = option(0, help="Run seed (worlds, samples shown to the model).")
    # Rounds of "make it harder" over the candidates that execute.
    evolve: int = option(0, help="Rounds of making executing tasks harder.")
    solver_attempts: int = option(
        8, help="K: solver attempts per task; kept if solved at least once."
    )
    solver_base_url: str | None = option(None, help="Solver endpoint [the proposer's].")
    solver_model: str | None = option(None, help="Solver model [the proposer's].")
    solver_api_key_env: str | None = option(None, help="Solver key variable [--api-key-env].")
    solver_temperature: float | None = option(
        None, help="Solver temperature [1 for K > 1, else 0]."
    )
    decontaminate: Path | None = option(
        None, help="Folder of tau2-format task files to keep away from."
    )
    dedup_threshold: float = option(
        0.8, help="MinHash Jaccard at which two tasks are near-duplicates."
    )
    intents_per_request: int = option(8, help="Intents asked per request.")
    world_chars: int = option(4000, help="Characters of the world sample shown per prompt.")
    workers: int = option(2, help="Sandbox worker processes.")
    call_timeout_s: float = 15.0
    # The teacher options whose meaning differs for a proposer and its solver.
    temperature: float | None = option(None, help="Proposer sampling temperature [1].")
    max_tokens: int | None = option(None, help="Most tokens per answer.", cli_default=1024)
    max_turns: int = option(12, help="Most solver answers per attempt.")
    concurrency: int | None = option(None, help="Requests / attempts in flight [64; local: 2].")
    user_base_url: str | None = option(None, help="User-simulator endpoint [the proposer's].")
    user_model: str | None = option(
        None, help="User-simulator model for the solver [the proposer's; local: scripted user]."
    )

    RESUME_KEYS = (
        "domains",
        "num_tasks",
        "teacher",
        "seed",
        "evolve",
        "solver_attempts",
        "solver_base_url",
        "solver_model",
        "solver_temperature",
        "decontaminate",
        "dedup_threshold",
        "intents_per_request",
        "world_chars",
        "shard",
        *TeacherOptions.TEACHER_RESUME_KEYS,
    )

    def proposer_temperature(self) -> float:
        return 1.0 if self.temperature is None else self.temperature

    def effective_solver_temperature(self) -> float:
        if self.solver_temperature is not None:
            return self.solver_temperature
        return 1.0 if self.solver_attempts > 1 else 0.0

    def solver_endpoint(self) -> bool:
        """Whether the solver has its own endpoint (else it uses the proposer's)."""
        return self.solver_base_url is not None

    def resolved(self) -> dict[str, Any]:
        values = self.run_resolved("decontaminate")
        values["temperature"] = self.proposer_temperature()
        values["solver_temperature"] = self.effective_solver_temperature()
        values["user"] = self.effective_user(self.teacher)
        values["concurrency"] = self.effective_concurrency(self.teacher == "local")
        values["endpoint_concurrency"] = self.effective_endpoint_concurrency(
            self.teacher == "local"
        )
        values["request_timeout_s"] = self.effective_timeout_s(self.teacher == "local")
        # What `validate` reads to re-derive the stored tasks
        # (toolscale.publish.validate.run_settings).
        values["schedules"] = schedule_dump((BUILTIN["standard"],))
        values["profiles"] = dict(STORED_PROFILES)
        values["tool_dropout"] = 0.0
        values["model_prices"] = {}
        values["reward"] = RewardConfig().as_json()
        return values


def check_synthesize(config: SynthesizeConfig) -> SynthesizeConfig:
    """Raise ConfigError for any option that cannot work; return the config with its domains
    resolved. Sends nothing and writes nothing."""
    at_least("--num-tasks", config.num_tasks, 1)
    at_least("--solver-attempts", config.solver_attempts, 1)
    at_least("--evolve", config.evolve, 0)
    at_least("--intents-per-request", config.intents_per_request, 1)
    at_least("--world-chars", config.world_chars, 200)
    at_least("--workers", config.workers, 1)
    if not 0 < config.dedup_threshold <= 1:
        raise ConfigError(f"--dedup-threshold must be in (0, 1] (got {config.dedup_threshold:g})")
    if config.solver_temperature is not None:
        at_least("--solver-temperature", config.solver_temperature, 0)
    if config.teacher not in TEACHERS:
        raise ConfigError(
            f"--teacher {config.teacher!r} cannot propose tasks; use one of: {', '.join(TEACHERS)}"
        )
    check_teacher(config.teacher, config)
    if config.solver_endpoint():
        if not config.solver_model:
            raise ConfigError("--solver-base-url needs --solver-model (the solver's model name)")
        api_key(config.solver_api_key_env or config.api_key_env)
    elif config.solver_model and config.teacher == "local":
        raise ConfigError(
            "--solver-model without --solver-base-url names a model of the local server, which "
            "serves one model; give --solver-base-url too, or leave --solver-model out"
        )
    domains = resolve(",".join(config.domains))
    for name in domains:
        if get_domain(name).family != "stateful":
            raise ConfigError(
                f"domain {name!r} is an orchestration domain; synthesize makes tasks over a "
                "database (stateful domains: "
                f"{', '.join(n for n in resolve('all') if get_domain(n).family == 'stateful')})"
            )
    check_isolation(config.isolation, domains, model_writes_code=True)  # every task is proposed
    most = -(-config.num_tasks // len(domains))  # intents of the domain asked for the most
    if config.shard is not None and config.shard.index >= most:
        raise ConfigError(
            f"--shard {config.shard} would have no intent to work on: --num-tasks "
            f"{config.num_tasks} over {len(domains)} domain(s) asks at most {most} intents of a "
            f"domain; run at most {most} shards or raise --num-tasks"
        )
    cache = RequestCache(config.cache_dir or config.out / CACHE_DIR)
    cache.check()
    cache.close()
    return replace(config, domains=domains)
