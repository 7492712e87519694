"""Choose, check and build the run's teacher from its options; report what its endpoints did.

`check_teacher` runs before anything is written or sent, so a missing model, URL or key fails
first with one line that says what to write. `TeacherRun` owns the endpoint pools of one run
(teacher and user simulator; a pool spreads a role's requests over its URLs, see
`toolscale.llm.endpoints`), closes them, and summarises their requests, retries, faults, tokens,
cost and dropped endpoints for run.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolscale.config.teacher import TeacherOptions
from toolscale.config.teacher_checks import LOCAL_KEY, api_key
from toolscale.llm.cache import RequestCache
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import Budget, Ledger
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.reference import ReferenceTeacher
from toolscale.play.transcript import Teacher
from toolscale.play.usersim import UserSimulator


class TeacherRun:
    """The teacher of one run plus the endpoint pools it holds, by role."""

    def __init__(
        self,
        teacher: Teacher,
        clients: dict[str, EndpointPool] | None = None,
        cache: RequestCache | None = None,
    ) -> None:
        self.teacher = teacher
        self.clients = clients or {}
        self.cache = cache

    async def aclose(self) -> None:
        for pool in self.clients.values():
            await pool.close()
        if self.cache is not None:
            self.cache.close()

    def summary(self) -> dict[str, Any]:
        return {role: pool.summary() for role, pool in self.clients.items()}

    @property
    def spent_usd(self) -> float:
        return sum(pool.cost_usd for pool in self.clients.values())


@dataclass(frozen=True)
class RolePools:
    """What every role's pool of one run shares (retries, budget, cache, per-endpoint limits,
    the teacher's prices); `pool(...)` builds one role's pool on its URLs, model and key."""

    options: TeacherOptions
    is_local: bool
    policy: RetryPolicy
    budget: Budget
    cache: RequestCache

    def pool(
        self, urls: tuple[str, ...], model: str, env: str, key: str, *, priced: bool
    ) -> EndpointPool:
        """One client per URL serving `model` (each with its own counts, all on the budget),
        pooled; `priced`: charged at the teacher's prices (the user simulator and the judge are
        not)."""
        prices = (self.options.teacher_price_in, self.options.teacher_price_out)
        paid = prices if priced else (0.0, 0.0)
        clients = [
            ChatClient(
                Endpoint(url, model, env, *paid), key, self.policy, Ledger(*paid, self.budget)
            )
            for url in urls
        ]
        return EndpointPool(
            clients,
            per_endpoint=self.options.effective_endpoint_concurrency(self.is_local),
            max_failures=self.options.endpoint_max_failures,
            cache=self.cache,
        )


def open_teacher(
    teacher: str,
    options: TeacherOptions,
    *,
    detours: bool,
    cache_dir: Path,
    local: tuple[str, str] | None = None,
) -> TeacherRun:
    """Build the teacher. `local` is (base_url, model) of a started local server."""
    if teacher == "reference":
        return TeacherRun(ReferenceTeacher(detours=detours))
    urls: tuple[str, ...]
    if local is not None:
        urls, model, key = (local[0],), local[1], LOCAL_KEY
        name = f"local:{Path(model).name}"
    else:
        urls, model = options.base_urls(), str(options.model)  # set: check_teacher
        key = api_key(options.api_key_env)
        name = f"openai:{model}"
    is_local = local is not None
    timeout_s = options.effective_timeout_s(is_local)
    policy = RetryPolicy(timeout_s, options.max_retries, options.retry_base_s)
    cache = RequestCache(options.cache_dir or cache_dir)
    roles = RolePools(options, is_local, policy, Budget(options.max_cost_usd), cache)
    clients = {"teacher": roles.pool(urls, model, options.api_key_env, key, priced=True)}
    user = None
    if options.effective_user(teacher) == "llm":  # on the teacher's endpoint unless told
        user_env = options.user_api_key_env or options.api_key_env
        user_key = key if local is not None and not options.user_base_url else api_key(user_env)
        user_urls = (options.user_base_url,) if options.user_base_url else urls
        user_model = options.user_model or model
        clients["user"] = roles.pool(user_urls, user_model, user_env, user_key, priced=False)
        user = UserSimulator(clients["user"])
    return TeacherRun(
        OpenAITeacher(
            clients["teacher"],
            name=name,
            attempts=options.attempts,
            temperature=options.effective_temperature(),
            top_p=options.top_p,
            max_tokens=options.effective_max_tokens(is_local),
            max_turns=options.max_turns,
            concurrency=options.effective_concurrency(is_local),
            user=user,
        ),
        clients,
        cache,
    )
