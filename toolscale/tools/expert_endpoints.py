"""Real endpoints behind expert aliases: the experts YAML, and one cached, priced call.

The YAML maps an alias (expert-1/2/3, the names the `ask_expert` schema offers) to an
OpenAI-compatible endpoint:

    expert-1:
      base_url: https://api.openai.com/v1
      model: gpt-5
      api_key_env: OPENAI_API_KEY   # the variable holding the key; never the key itself
      input_per_m: 1.25             # $ per 1M prompt tokens
      output_per_m: 10.0            # $ per 1M completion tokens
      max_tokens: 512

Calls run inside the sandbox workers, which find the file through TOOLSCALE_EXPERTS and their
reply cache through TOOLSCALE_EXPERT_CACHE (both set by the pipeline before the pool starts).
A call is sent at temperature 0 and its reply and usage are cached on disk, keyed like the
teacher's requests: the verifier's replay of the call then reads the same reply and token counts,
so a trace that used a real expert stays grounded. A failed call is a crashed call (the endpoint
failed, not the model).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from toolscale.core.contract import ModelUsage
from toolscale.core.errors import ConfigError
from toolscale.llm.cache import RequestCache, request_key

if TYPE_CHECKING:
    import openai

CONFIG_VAR = "TOOLSCALE_EXPERTS"
CACHE_VAR = "TOOLSCALE_EXPERT_CACHE"
ALIASES = ("expert-1", "expert-2", "expert-3")


class ExpertEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    input_per_m: float = 0.0
    output_per_m: float = 0.0
    max_tokens: int = 512
    timeout_s: float = 60.0


def load_endpoints(path: Path) -> dict[str, ExpertEndpoint]:
    """Read and check an experts YAML; every problem is a ConfigError naming the fix."""
    try:
        raw = yaml.safe_load(Path(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read the experts file {path}: {exc}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"the experts file {path} must map aliases to endpoints")
    endpoints = {}
    for alias, value in raw.items():
        if alias not in ALIASES:
            raise ConfigError(f"experts file {path}: unknown alias {alias!r}; use {ALIASES}")
        try:
            endpoints[alias] = ExpertEndpoint.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ConfigError(f"experts file {path}: {alias}.{where}: {first['msg']}") from None
        if not os.environ.get(endpoints[alias].api_key_env):
            raise ConfigError(
                f"experts file {path}: {alias} reads its key from "
                f"{endpoints[alias].api_key_env}, which is not set"
            )
    return endpoints


@cache
def configured() -> dict[str, ExpertEndpoint]:
    """The endpoints of this process (read once from TOOLSCALE_EXPERTS; empty when unset)."""
    path = os.environ.get(CONFIG_VAR)
    return load_endpoints(Path(path)) if path else {}


@contextmanager
def expert_environment(path: Path | None, cache_dir: Path) -> Iterator[None]:
    """Point processes started inside the block (the sandbox workers) at the experts file."""
    if path is None:
        yield
        return
    saved = {var: os.environ.get(var) for var in (CONFIG_VAR, CACHE_VAR)}
    os.environ[CONFIG_VAR] = str(Path(path).resolve())
    os.environ[CACHE_VAR] = str(cache_dir.resolve())
    try:
        yield
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value


@cache
def _store(folder: str) -> RequestCache:
    """This process's connection to the experts' request cache in `folder`."""
    return RequestCache(Path(folder))


@cache
def _client(alias: str) -> openai.OpenAI:
    import openai  # only a process that asks a real expert pays for importing the client

    endpoint = configured()[alias]
    return openai.OpenAI(
        api_key=os.environ[endpoint.api_key_env],
        base_url=endpoint.base_url,
        timeout=endpoint.timeout_s,
        max_retries=3,
    )


def endpoint_reply(alias: str, endpoint: ExpertEndpoint, question: str) -> tuple[str, ModelUsage]:
    """Ask the real expert (or read its cached answer); returns the reply and its usage."""
    messages = [{"role": "user", "content": question}]
    sampling: dict[str, Any] = {"temperature": 0.0, "max_tokens": endpoint.max_tokens}
    key = request_key(endpoint.base_url, endpoint.model, messages, [], sampling)
    store = _store(os.environ.get(CACHE_VAR, ".toolscale-expert-cache"))
    entry: dict[str, Any] | None = store.get(key)
    if entry is None:
        started = time.perf_counter()
        response = _client(alias).chat.completions.create(
            model=endpoint.model,
            messages=messages,  # type: ignore[arg-type]  # openai wants its TypedDicts
            **sampling,
        )
        counted = response.usage
        entry = {
            "reply": response.choices[0].message.content or "",
            "prompt_tokens": counted.prompt_tokens if counted else 0,
            "completion_tokens": counted.completion_tokens if counted else 0,
            "latency_ms": round((time.perf_counter() - started) * 1000, 3),
        }
        store.put(key, entry)
    usage = ModelUsage(
        model=alias,
        prompt_tokens=entry["prompt_tokens"],
        completion_tokens=entry["completion_tokens"],
        latency_ms=entry["latency_ms"],
        simulated=False,
    )
    return entry["reply"], usage
