"""The clients of one synthesize run, built the way `generate` builds its teacher
(`toolscale.play.factory`): one endpoint pool per role (proposer: intents, tasks, evolved
tasks; solver; user simulator), each spreading its requests over its URLs
(`toolscale.llm.endpoints`), with one request cache, one budget for all, and the retries and key
handling of the shared client.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from toolscale.config.synthesize import SynthesizeConfig
from toolscale.config.teacher_checks import LOCAL_KEY, api_key
from toolscale.llm.cache import RequestCache
from toolscale.llm.client import RetryPolicy
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import Budget
from toolscale.play.factory import RolePools
from toolscale.play.openai_teacher import OpenAITeacher
from toolscale.play.usersim import UserSimulator


class Clients:
    """`proposer` (an EndpointPool), `solver` (an OpenAITeacher), and what their pools did."""

    def __init__(
        self, config: SynthesizeConfig, cache_dir: Path, local: tuple[str, str] | None
    ) -> None:
        is_local = local is not None
        urls: tuple[str, ...]
        if local is not None:
            urls, model, key, label = (local[0],), local[1], LOCAL_KEY, "local"
        else:
            urls, model = config.base_urls(), str(config.model)  # set: check_teacher
            key, label = api_key(config.api_key_env), "openai"
        self.proposer_name = f"{label}:{Path(model).name if is_local else model}"
        policy = RetryPolicy(
            config.effective_timeout_s(is_local), config.max_retries, config.retry_base_s
        )
        self.budget = Budget(config.max_cost_usd)
        self.cache = RequestCache(config.cache_dir or cache_dir)
        roles = RolePools(config, is_local, policy, self.budget, self.cache)
        self.clients = {"proposer": roles.pool(urls, model, config.api_key_env, key, priced=True)}
        # The solver has its own pool (its own counts) on its endpoint, by default the same URLs.
        env = config.solver_api_key_env or config.api_key_env
        solver_key = api_key(env) if config.solver_endpoint() else key
        solver_urls = (config.solver_base_url,) if config.solver_base_url else urls
        solver_model = config.solver_model or model
        self.clients["solver"] = roles.pool(solver_urls, solver_model, env, solver_key, priced=True)
        self.solver_name = (
            f"openai:{config.solver_model}" if config.solver_model else self.proposer_name
        )
        user = None
        if config.effective_user(config.teacher) == "llm":
            env = config.user_api_key_env or config.api_key_env
            user_key = key if is_local and not config.user_base_url else api_key(env)
            user_urls = (config.user_base_url,) if config.user_base_url else urls
            self.clients["user"] = roles.pool(
                user_urls, config.user_model or model, env, user_key, priced=False
            )
            user = UserSimulator(self.clients["user"])
        solver_options = replace(config, attempts=config.solver_attempts)
        self.solver = OpenAITeacher(
            self.clients["solver"],
            name=self.solver_name,
            attempts=config.solver_attempts,
            temperature=config.effective_solver_temperature(),
            top_p=config.top_p,
            max_tokens=config.effective_max_tokens(is_local),
            max_turns=config.max_turns,
            concurrency=solver_options.effective_concurrency(is_local),
            user=user,
        )

    @property
    def proposer(self) -> EndpointPool:
        return self.clients["proposer"]

    async def aclose(self) -> None:
        for pool in self.clients.values():
            await pool.close()
        self.cache.close()

    def summary(self) -> dict[str, Any]:
        """Per role (run.json `endpoints`): requests, HTTP tries, cached answers, faults, tokens,
        cost, `rerouted`, and `by_url` (each endpoint's counts and drops)."""
        return {role: pool.summary() for role, pool in self.clients.items()}
