"""Find tau2-bench's source and import its modules without running `tau2/__init__`.

tau2 is found in a source checkout named by `TOOLSCALE_TAU2_SRC` (its `src` folder, or the
checkout itself), else as an installed package that has tau2-bench's layout (PyPI's `tau2` is an
unrelated package). `tau2/__init__` imports tau2's runner, agents and litellm (10-30 s per process
here), none of which a domain's tools or the evaluator need, so the package is registered as a
bare package module pointing at its folder: `import tau2.environment.toolkit` then runs only that
module and the subpackages it imports; `deepdiff` (which tau2.utils imports for a debugging
helper, and which imports pandas) is loaded on first use. Sandbox workers pay for what their
domain uses, no more.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from functools import cache
from pathlib import Path

from toolscale.core.errors import ConfigError

ENV = "TOOLSCALE_TAU2_SRC"
_MARKER = Path("environment", "toolkit.py")  # what makes a folder tau2-bench's package


def _package_in(root: Path) -> Path | None:
    for candidate in (root / "tau2", root / "src" / "tau2", root):
        if candidate.name == "tau2" and (candidate / _MARKER).is_file():
            return candidate
    return None


def locate() -> Path:
    """The folder of tau2-bench's `tau2` package; ConfigError saying how to point at one."""
    given = os.environ.get(ENV, "").strip()
    if given:
        found = _package_in(Path(given).expanduser())
        if found is None:
            raise ConfigError(
                f"{ENV}={given} holds no tau2-bench source (no tau2/{_MARKER.as_posix()} under it "
                "or under its src/); point it at a tau2-bench checkout"
            )
        return found
    spec = importlib.util.find_spec("tau2")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            if (Path(location) / _MARKER).is_file():
                return Path(location)
    raise ConfigError(
        "tau2-bench is not found: clone github.com/sierra-research/tau2-bench and set "
        f"{ENV}=/path/to/tau2-bench (pip's `tau2` package is another project)"
    )


@cache
def ensure() -> Path:
    """Make `tau2.*` importable without `tau2/__init__`; returns the package folder."""
    package = locate()
    loaded = sys.modules.get("tau2")
    if loaded is not None:
        paths = [str(Path(p).resolve()) for p in getattr(loaded, "__path__", [])]
        if str(package.resolve()) not in paths:
            raise ConfigError(
                f"another tau2 ({paths}) is already imported in this process; "
                f"unset {ENV} or uninstall it"
            )
        return package
    _quiet()
    _lazy_deepdiff()
    module = types.ModuleType("tau2")
    module.__path__ = [str(package)]  # a package whose __init__ is never run
    module.__file__ = str(package / "__init__.py")
    module.__package__ = "tau2"
    sys.modules["tau2"] = module
    return package


def _quiet() -> None:
    """tau2 logs through loguru (a `.env` warning on import, every tool response at DEBUG);
    keep its messages out of toolscale's output."""
    try:
        from loguru import logger
    except ImportError:  # tau2 itself will say what is missing
        return
    logger.disable("tau2")


def _lazy_deepdiff() -> None:
    """tau2.utils imports `DeepDiff` for one debugging helper (`show_dict_diff`); the real import
    pulls in pandas (~3 s here). Until something calls it, `deepdiff` is a stand-in whose
    `DeepDiff` imports the real package on first use."""
    if "deepdiff" in sys.modules:
        return
    stand_in = types.ModuleType("deepdiff")

    def deep_diff(*args: object, **kwargs: object) -> object:
        del sys.modules["deepdiff"]
        real = importlib.import_module("deepdiff")
        stand_in.DeepDiff = real.DeepDiff  # type: ignore[attr-defined]
        return real.DeepDiff(*args, **kwargs)

    stand_in.DeepDiff = deep_diff  # type: ignore[attr-defined]
    sys.modules["deepdiff"] = stand_in


def data_dir() -> Path:
    """tau2-bench's data folder as tau2 resolves it (TAU2_DATA_DIR, else the checkout's data)."""
    ensure()
    from tau2.utils.utils import DATA_DIR

    return Path(DATA_DIR)


def import_module(name: str) -> types.ModuleType:
    """`tau2.<name>` imported after `ensure()`; a missing dependency is one ConfigError line."""
    ensure()
    try:
        return importlib.import_module(f"tau2.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("tau2"):
            raise ConfigError(
                f"tau2 needs the package {exc.name!r}, which is not installed: "
                "pip install 'toolscale[tau2]'"
            ) from None
        raise
