"""Check the LLM teacher options before anything is written or sent: one line per mistake.

`check_teacher` raises ConfigError for a missing model, URL or key, or a value out of range, with
a message that says what to write instead; `api_key` reads the key a role's endpoint needs.
"""

from __future__ import annotations

import os

from toolscale.config.teacher import TeacherOptions
from toolscale.core.errors import ConfigError
from toolscale.tools.expert_endpoints import load_endpoints

TEACHERS = ("reference", "openai", "local")
USERS = ("llm", "scripted")
# transformers serve needs no key; the openai client still wants a non-empty one.
LOCAL_KEY = "local"


def at_least(flag: str, value: float, minimum: float) -> None:
    """Raises ConfigError unless `value` (the option `flag`) is at least `minimum`."""
    if value < minimum:
        raise ConfigError(f"{flag} must be at least {minimum:g} (got {value:g})")


def _positive(name: str, value: float | None, minimum: float = 1) -> None:
    """`at_least` for the option field `name` (its flag derived), when it is set."""
    if value is not None:
        at_least("--" + name.replace("_", "-"), value, minimum)


def api_key(variable: str) -> str:
    key = os.environ.get(variable, "")
    if not key:
        raise ConfigError(
            f"the environment variable {variable} holding the endpoint's API key is not set; "
            f"export {variable}=... (any value for a server that needs no key), or name another "
            "variable with --api-key-env"
        )
    return key


def _check_urls(urls: tuple[str, ...]) -> None:
    seen: set[str] = set()
    for url in urls:
        if not url.startswith(("http://", "https://")):
            raise ConfigError(
                f"--base-url {url!r} is not an http(s) URL; write e.g. http://localhost:8000/v1"
            )
        if url.rstrip("/") in seen:
            raise ConfigError(f"--base-url {url} is given twice; list each endpoint once")
        seen.add(url.rstrip("/"))


def check_teacher(teacher: str, options: TeacherOptions) -> None:
    """Raise ConfigError for any teacher option that cannot work, before the run starts."""
    if teacher not in TEACHERS:
        raise ConfigError(f"unknown --teacher {teacher!r}; available: {', '.join(TEACHERS)}")
    for name in ("attempts", "max_turns", "concurrency", "endpoint_concurrency"):
        _positive(name, getattr(options, name))
    _positive("endpoint_max_failures", options.endpoint_max_failures)
    _positive("max_retries", options.max_retries, 0)
    _positive("max_tokens", options.max_tokens)
    for name in ("teacher_price_in", "teacher_price_out", "retry_base_s", "temperature"):
        _positive(name, getattr(options, name), 0)
    if options.request_timeout_s is not None and options.request_timeout_s <= 0:
        raise ConfigError("--request-timeout must be positive")
    if options.max_cost_usd is not None and options.max_cost_usd <= 0:
        raise ConfigError("--max-cost-usd must be positive; leave it out for no limit")
    if options.experts is not None:
        load_endpoints(options.experts)
    if teacher == "openai":
        if not options.base_urls() or not options.model:
            raise ConfigError(
                "--teacher openai needs --base-url (e.g. https://api.openai.com/v1 or "
                "http://localhost:8000/v1; repeat it for several endpoints of the same model) "
                "and --model (the endpoint's model name)"
            )
        _check_urls(options.base_urls())
        api_key(options.api_key_env)
    check_user(teacher, options)
    if teacher == "reference" and options.attempts != 1:
        raise ConfigError("--attempts is for LLM teachers; the reference teacher plays each route")


def check_user(teacher: str, options: TeacherOptions) -> None:
    """Raise ConfigError for a `--user` choice that cannot work (the user simulator's key is
    read when it has its own endpoint or the teacher's is an endpoint's)."""
    if options.user not in (None, *USERS):
        raise ConfigError(f"unknown --user {options.user!r}; available: {', '.join(USERS)}")
    user = options.effective_user(teacher)
    if user == "llm" and teacher == "reference":
        raise ConfigError(
            "the reference teacher plays its gold conversations against the scripted user; "
            "leave --user out, or use an LLM teacher (--teacher openai) with --user llm"
        )
    if user == "scripted" and (options.user_model or options.user_base_url):
        raise ConfigError(
            "--user scripted needs no --user-model or --user-base-url; leave them out, or use "
            "--user llm to play the caller with that model"
        )
    if user == "llm" and (teacher == "openai" or options.user_base_url):
        api_key(options.user_api_key_env or options.api_key_env)
