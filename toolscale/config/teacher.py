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

# The local teacher's defaults, measured on 2 cores (benchmarks/RESULTS.md, docs/teachers.md):
# SmolLM2-135M rarely needs more than 256 tokens for an answer or a call, and at 1,024 it mostly
# repeats itself for a minute per request.
LOCAL_MAX_TOKENS = 256
LOCAL_CONCURRENCY = 2


@dataclass(frozen=True, kw_only=True)
class TeacherOptions:
    # One endpoint URL, or several serving the same model (toolscale.llm.endpoints).
    base_url: str | tuple[str, ...] | None = None
    model: str | None = None  # the endpoint's model name, or a local model folder
    api_key_env: str = "OPENAI_API_KEY"
    attempts: int = 1
    temperature: float | None = None  # None: 0.0 for one attempt, 1.0 for several
    top_p: float | None = None
    max_tokens: int | None = None  # None: 1024, or 256 for the local teacher
    max_turns: int = 12
    concurrency: int | None = None  # None: 64, or 2 for the local server (LOCAL_CONCURRENCY)
    endpoint_concurrency: int | None = None  # requests in flight per endpoint; None: concurrency
    endpoint_max_failures: int = 3  # failed requests in a row that take an endpoint out
    request_timeout_s: float | None = None  # None: 60 s, or 600 s for the local server
    max_retries: int = 4
    retry_base_s: float = 0.5
    teacher_price_in: float = 0.0  # $ per 1M prompt tokens
    teacher_price_out: float = 0.0  # $ per 1M completion tokens
    max_cost_usd: float | None = None
    cache_dir: Path | None = None  # default OUT/.toolscale/cache
    user_base_url: str | None = None  # the user simulator's endpoint (default: the teacher's)
    user_model: str | None = None  # the user simulator's model; unset: no simulator
    user_api_key_env: str | None = None  # default: api_key_env
    experts: Path | None = None  # YAML: expert alias -> endpoint (toolscale.tools.experts)

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
