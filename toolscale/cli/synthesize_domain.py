"""`toolscale synthesize-domain`: parse the flags, call `synthesize_domain`, say what it wrote."""

from __future__ import annotations

from typing import Any

import typer

from toolscale.cli.options import flags_of
from toolscale.cli.progress import fail, run_funnel
from toolscale.config.files import with_run_config
from toolscale.config.option import from_flags
from toolscale.core.errors import ConfigError
from toolscale.domaingen.config import DomainGenConfig

# Teacher options that mean nothing to a model writing a domain.
UNUSED_BY_DOMAINGEN = (
    "attempts", "experts", "user", "user_base_url", "user_model", "user_api_key_env",
    "max_turns", "concurrency", "top_p",
)  # fmt: skip


@flags_of(DomainGenConfig, skip=UNUSED_BY_DOMAINGEN)
@with_run_config
def synthesize_domain_command(ctx: typer.Context, **flags: Any) -> None:
    """An LLM writes kit v2 domains from topics; only those that pass every execution gate in
    the sandbox are kept (docs/synthesize-domain.md)."""
    from toolscale.domaingen.domain_synthesis import SYNTHESIZE_DOMAIN_COMMAND, synthesize_domain

    if flags["out"] is None:
        fail("--out is required (on the command line or in --config)")
    try:
        settings = from_flags(DomainGenConfig, flags)
    except ConfigError as exc:
        fail(str(exc))
    run_funnel(
        SYNTHESIZE_DOMAIN_COMMAND, lambda: synthesize_domain(settings), flags["out"], "domaingen"
    )
