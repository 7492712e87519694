"""The options of the LLM teachers (`openai`, `local`), part of every run's resolved config.

Defaults that differ for the local teacher (a 135M model on CPU) are resolved by the
`effective_*` methods and written to run.json resolved. No option holds a secret: keys are read
from the environment variables named here (`api_key_env`, `user_api_key_env`) when the run
starts, so the resolved config can be written to run.json and quoted in the data card as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from toolscale.config.option import option

# The local teacher's defaults, measured on 2 cores (benchmarks/RESULTS.md, docs/teachers.md):
# SmolLM2-135M rarely needs more than 256 tokens for an answer or a call, and at 1,024 it mostly
# repeats itself for a minute per request.
LOCAL_MAX_TOKENS = 256
LOCAL_CONCURRENCY = 2
# The opt-in for a weaker sandbox (toolscale.sandbox.guard); the trainer's flags share the text.
ISOLATION_HELP = (
    "Weakest sandbox model-written code may run in: bwrap; unshare or rlimits only as an "
    "explicit, recorded risk (docs/sandbox.md)."
)


def _urls(value: list[str] | None) -> tuple[str, ...] | None:
    return tuple(value) if value else None


@dataclass(frozen=True, kw_only=True)
class TeacherOptions:
    # One endpoint URL, or several serving the same model (toolscale.llm.endpoints).
    base_url: str | tuple[str, ...] | None = option(
        None,
        help="OpenAI-compatible endpoint URL; repeat for endpoints of one model.",
        cli_type=list[str] | None,
        parse=_urls,
    )
    model: str | None = option(
        None, help="Endpoint model name; for --teacher local a model folder."
    )
    api_key_env: str = option(
        "OPENAI_API_KEY", help="Environment variable holding the endpoint's key."
    )
    attempts: int = option(1, help="Sampled attempts per task (LLM teachers).")
    temperature: float | None = option(None, help="Sampling temperature [0 for 1 attempt, else 1].")
    top_p: float | None = option(None, help="Nucleus sampling top-p.")
    max_tokens: int | None = option(None, help="Most tokens per teacher answer [1024; local: 256].")
    max_turns: int = option(12, help="Most teacher answers per attempt.")
    concurrency: int | None = option(None, help="Attempts in flight at once [64; local: 2].")
    endpoint_concurrency: int | None = option(
        None, help="Requests in flight per --base-url [--concurrency]."
    )
    endpoint_max_failures: int = option(
        3, help="Failed requests in a row that take an endpoint out of rotation."
    )
    request_timeout_s: float | None = option(
        None, help="Seconds per request try [60; local: 600].", flag="request_timeout"
    )
    max_retries: int = option(4, help="Retries per request (429/5xx/...).")
    retry_base_s: float = option(0.5, help="First backoff delay in seconds.", flag="retry_base")
    teacher_price_in: float = option(0.0, help="$ per 1M prompt tokens.")
    teacher_price_out: float = option(0.0, help="$ per 1M completion tokens.")
    max_cost_usd: float | None = option(
        None, help="Stop (resumably) once the endpoints cost this much."
    )
    cache_dir: Path | None = option(None, help="Request cache folder [OUT/.toolscale/cache].")
    user: str | None = option(
        None,
        help="Who plays the caller of conversational tasks: llm (a user simulator) or scripted "
        "[openai: llm; reference, local: scripted].",
    )
    user_base_url: str | None = option(None, help="User-simulator endpoint [the teacher's].")
    user_model: str | None = option(None, help="User-simulator model [the teacher's].")
    user_api_key_env: str | None = option(None, help="User-simulator key variable [--api-key-env].")
    experts: Path | None = option(None, help="YAML: expert alias -> endpoint (docs/teachers.md).")
    # Checked before anything runs (toolscale.sandbox.guard); run.json and the card say what ran.
    isolation: str = option("bwrap", help=ISOLATION_HELP)

    # Options that change the rows, so a --resume must keep them.
    # Not the URLs: the request cache and the rows do not depend on which endpoint answered.
    TEACHER_RESUME_KEYS: ClassVar[tuple[str, ...]] = (
        "model",
        "attempts",
        "temperature",
        "top_p",
        "max_tokens",
        "max_turns",
        "user_model",
        "experts",
    )

    def base_urls(self) -> tuple[str, ...]:
        """The endpoint URLs, in the order given (none for the reference or local teacher)."""
        if self.base_url is None:
            return ()
        return (self.base_url,) if isinstance(self.base_url, str) else tuple(self.base_url)

    def effective_user(self, teacher: str) -> str:
        """Who plays the caller: `user` when given; else an LLM user simulator when a user
        model is named or the teacher is an endpoint's model (`openai`: an agent worth judging
        deserves a caller who follows it as people do), else the scripted user (the reference
        teacher's gold conversations are played against it; the local 135M model is no user)."""
        if self.user is not None:
            return self.user
        return "llm" if self.user_model or teacher == "openai" else "scripted"

    def effective_concurrency(self, local: bool) -> int:
        if self.concurrency is not None:
            return self.concurrency
        return LOCAL_CONCURRENCY if local else 64

    def effective_endpoint_concurrency(self, local: bool) -> int:
        if self.endpoint_concurrency is not None:
            return self.endpoint_concurrency
        return self.effective_concurrency(local)

    def effective_max_tokens(self, local: bool) -> int:
        if self.max_tokens is not None:
            return self.max_tokens
        return LOCAL_MAX_TOKENS if local else 1024

    def effective_timeout_s(self, local: bool) -> float:
        if self.request_timeout_s is not None:
            return self.request_timeout_s
        return 600.0 if local else 60.0

    def effective_temperature(self) -> float:
        if self.temperature is not None:
            return self.temperature
        return 0.0 if self.attempts == 1 else 1.0
