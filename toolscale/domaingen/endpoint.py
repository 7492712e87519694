"""The endpoint pool of one synthesize-domain run: the model that writes the domains, built as
every role's pool is (`toolscale.play.factory.RolePools`: retries, one request cache, one
budget, its URLs spread over), and the example domain's files the model is shown."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from toolscale.config.teacher_checks import LOCAL_KEY, api_key
from toolscale.core.registry import get_domain
from toolscale.domaingen.config import DomainGenConfig
from toolscale.domaingen.prompts import example_files
from toolscale.llm.cache import RequestCache
from toolscale.llm.client import RetryPolicy
from toolscale.llm.endpoints import EndpointPool
from toolscale.llm.ledger import Budget
from toolscale.play.factory import RolePools


@dataclass(frozen=True)
class AuthorPool:
    """The author's pool and its request cache, closed together."""

    pool: EndpointPool
    cache: RequestCache

    @property
    def clients(self) -> dict[str, EndpointPool]:
        """The pool by role, as the probe asks it (`toolscale.llm.probe`)."""
        return {"proposer": self.pool}

    async def aclose(self) -> None:
        await self.pool.close()
        self.cache.close()


def author_pool(
    config: DomainGenConfig, cache_dir: Path, local: tuple[str, str] | None
) -> AuthorPool:
    """The pool (with its cache) on the run's URLs, or on the started local server."""
    is_local = local is not None
    urls: tuple[str, ...]
    if local is not None:
        urls, model, key = (local[0],), local[1], LOCAL_KEY
    else:
        urls, model, key = config.base_urls(), str(config.model), api_key(config.api_key_env)
    policy = RetryPolicy(
        config.effective_timeout_s(is_local), config.max_retries, config.retry_base_s
    )
    cache = RequestCache(config.cache_dir or cache_dir)
    roles = RolePools(config, is_local, policy, Budget(config.max_cost_usd), cache)
    return AuthorPool(roles.pool(urls, model, config.api_key_env, key, priced=True), cache)


def example(name: str) -> dict[str, str]:
    """The five files of the installed domain `name` (trusted code: imported here)."""
    module = sys.modules[type(get_domain(name)).__module__]
    package = (
        module.__name__
        if module.__file__ and module.__file__.endswith("__init__.py")
        else module.__name__.rpartition(".")[0]
    )
    return example_files(Path(module.__file__ or "").parent, package)
