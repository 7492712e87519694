"""The clients of one synthesize run: the proposer (intents, tasks, evolved tasks) and the
solver teacher, built the way `generate` builds its teacher (`toolscale.teachers.factory`):
one request cache, one budget for both, retries and key handling of the shared client.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from toolscale.llm.cache import RequestCache
from toolscale.llm.client import ChatClient, Endpoint, RetryPolicy
from toolscale.llm.ledger import Budget, Ledger
from toolscale.synthesis.config import SynthesizeConfig
from toolscale.teachers.factory import LOCAL_KEY, _key
from toolscale.teachers.openai_teacher import OpenAITeacher
from toolscale.teachers.usersim import UserSimulator


class Clients:
    """`proposer` (a ChatClient), `solver` (an OpenAITeacher), and what they did."""

    def __init__(
        self, config: SynthesizeConfig, cache_dir: Path, local: tuple[str, str] | None
    ) -> None:
        is_local = local is not None
        if local is not None:
            base_url, model, key, label = local[0], local[1], LOCAL_KEY, "local"
        else:
            base_url, model = str(config.base_url), str(config.model)
            key, label = _key(config.api_key_env), "openai"
        self.proposer_name = f"{label}:{Path(model).name if is_local else model}"
        policy = RetryPolicy(
            config.effective_timeout_s(is_local), config.max_retries, config.retry_base_s
        )
        self.budget = Budget(config.max_cost_usd)
        self.cache = RequestCache(config.cache_dir or cache_dir)
        prices = (config.teacher_price_in, config.teacher_price_out)
        endpoint = Endpoint(base_url, model, config.api_key_env, *prices)
        self.clients: dict[str, ChatClient] = {
            "proposer": ChatClient(endpoint, key, policy, Ledger(*prices, self.budget), self.cache)
        }
        # The solver has its own client (its own counts) on its endpoint, by default the same.
        env = config.solver_api_key_env or config.api_key_env
        solver_key = _key(env) if config.solver_endpoint() else key
        solver_model = config.solver_model or model
        solver = Endpoint(config.solver_base_url or base_url, solver_model, env, *prices)
        self.clients["solver"] = ChatClient(
            solver, solver_key, policy, Ledger(*prices, self.budget), self.cache
        )
        self.solver_name = (
            f"openai:{config.solver_model}" if config.solver_model else self.proposer_name
        )
        user = None
        if config.user_model:
            env = config.user_api_key_env or config.api_key_env
            user_key = key if is_local and not config.user_base_url else _key(env)
            user_endpoint = Endpoint(config.user_base_url or base_url, config.user_model, env)
            self.clients["user"] = ChatClient(
                user_endpoint, user_key, policy, Ledger(0.0, 0.0, self.budget), self.cache
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
    def proposer(self) -> ChatClient:
        return self.clients["proposer"]

    async def aclose(self) -> None:
        for client in self.clients.values():
            await client.close()
        self.cache.close()

    def summary(self) -> dict[str, Any]:
        """Per role: requests, HTTP tries, cached answers, faults, tokens, cost."""
        return {role: client.ledger.summary() for role, client in self.clients.items()}
