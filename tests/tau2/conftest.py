"""tau2-bench is not a dependency: tests that run its code skip when no checkout is found
(set TOOLSCALE_TAU2_SRC=/path/to/tau2-bench to run them)."""

from __future__ import annotations

import pytest

from toolscale.core.errors import ConfigError
from toolscale.tau2 import source


def tau2_found() -> bool:
    try:
        source.locate()
    except ConfigError:
        return False
    return True


needs_tau2 = pytest.mark.skipif(
    not tau2_found(), reason="tau2-bench not found (set TOOLSCALE_TAU2_SRC to a checkout)"
)
