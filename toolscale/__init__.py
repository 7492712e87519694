"""toolscale: verifiable multi-turn tool-use training data for orchestrator models.

The Python API is one function per `toolscale` subcommand, the function that subcommand calls
(docs/api.md): `toolscale.generate(out="out/demo", domains="bank,math", num_tasks=20)`,
`toolscale.validate`, `toolscale.card`, ... Each is imported on first use, so `import toolscale`
alone stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> (module, name there): the subcommands' functions, then the validation API.
_API = {
    "generate": ("toolscale.pipeline.generate", "generate"),
    "generate_config": ("toolscale.pipeline.options", "generate_config"),
    "synthesize": ("toolscale.synthesize.run", "synthesize"),
    "synthesize_domain": ("toolscale.domaingen.run", "synthesize_domain"),
    "validate": ("toolscale.publish.validate", "validate_output"),
    "merge": ("toolscale.api", "merge"),
    "domains": ("toolscale.core.registry", "registered"),
    "check_domain": ("toolscale.check.check_domain", "check_domain"),
    "new_domain": ("toolscale.kit.scaffold", "new_domain"),
    "card": ("toolscale.publish.card", "card"),
    "check_rewards": ("toolscale.check.reward_check", "check_rewards"),
    "push": ("toolscale.publish.push", "push"),
    "export": ("toolscale.publish.export", "export"),
    "view": ("toolscale.view.app", "view"),
    "validate_trace": ("toolscale.publish.api", "validate_trace"),
    "validate_dataset": ("toolscale.publish.api", "validate_dataset"),
    "assert_valid_trace": ("toolscale.publish.api", "assert_valid_trace"),
    "assert_valid_dataset": ("toolscale.publish.api", "assert_valid_dataset"),
}
__all__ = [
    "__version__",
    "assert_valid_dataset",
    "assert_valid_trace",
    "card",
    "check_domain",
    "check_rewards",
    "domains",
    "export",
    "generate",
    "generate_config",
    "merge",
    "new_domain",
    "push",
    "synthesize",
    "synthesize_domain",
    "validate",
    "validate_dataset",
    "validate_trace",
    "view",
]

if TYPE_CHECKING:  # what type checkers and editors see; nothing is imported at run time
    from toolscale.api import merge
    from toolscale.check.check_domain import check_domain
    from toolscale.check.reward_check import check_rewards
    from toolscale.core.registry import registered as domains
    from toolscale.domaingen.run import synthesize_domain
    from toolscale.kit.scaffold import new_domain
    from toolscale.pipeline.generate import generate
    from toolscale.pipeline.options import generate_config
    from toolscale.publish.api import (
        assert_valid_dataset,
        assert_valid_trace,
        validate_dataset,
        validate_trace,
    )
    from toolscale.publish.card import card
    from toolscale.publish.export import export
    from toolscale.publish.push import push
    from toolscale.publish.validate import validate_output as validate
    from toolscale.synthesize.run import synthesize
    from toolscale.view.app import view


def __getattr__(name: str) -> Any:
    if name in _API:
        module, attribute = _API[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'toolscale' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
