"""toolscale: verifiable multi-turn tool-use training data for orchestrator models."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# The validation API, imported on first use: it pulls in datasets, jsonschema and the sandbox,
# which `import toolscale` alone should not pay for.
_API = ("validate_trace", "validate_dataset", "assert_valid_trace", "assert_valid_dataset")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from toolscale.publish import api

        return getattr(api, name)
    raise AttributeError(f"module 'toolscale' has no attribute {name!r}")
