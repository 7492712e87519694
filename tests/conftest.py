"""Shared test setup: the faulty fixture domain is registered for every process, beside any
domain TOOLSCALE_DOMAINS already adds (so the contract tests run over that one too)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import datasets.config
import pytest

FAULTY = "faulty=tests.fixtures.faulty:FaultyDomain"
_added = [e for e in os.environ.get("TOOLSCALE_DOMAINS", "").split(",") if e.strip()]
os.environ["TOOLSCALE_DOMAINS"] = ",".join([*_added, *([FAULTY] if FAULTY not in _added else [])])
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# A fresh datasets cache per test session: it keys loaded folders by name, so two outputs with
# the same folder name in one session could otherwise be served from a stale cache.
os.environ.setdefault("HF_DATASETS_CACHE", tempfile.mkdtemp(prefix="toolscale-hf-cache-"))
# datasets read its cache folder when imported (above): without this the session used the
# user's ~/.cache, where an earlier run's rows of a folder named "data" were found again
datasets.config.HF_DATASETS_CACHE = os.environ["HF_DATASETS_CACHE"]


@pytest.fixture(autouse=True)
def _fresh_datasets_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
):
    """A datasets cache per test: datasets keys a loaded folder by its name and config, so two
    tests' outputs both named "out" would otherwise share one cached copy (read at call time
    from `datasets.config`, and by subprocesses from the environment)."""
    cache = str(tmp_path_factory.mktemp("hf-datasets-cache"))
    monkeypatch.setenv("HF_DATASETS_CACHE", cache)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", cache)


@pytest.fixture(autouse=True, scope="module")
def _module_datasets_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A datasets cache per test module, set before the module's own fixtures: a module-scoped
    fixture that writes an output and loads it runs before the per-test cache above, so two
    modules' outputs both named "data" shared the session's cache (a CI run read another
    module's railway 4.6 rows for a fresh railway 4.8 output)."""
    cache = str(tmp_path_factory.mktemp("hf-datasets-module-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_DATASETS_CACHE", cache)
        patch.setattr(datasets.config, "HF_DATASETS_CACHE", cache)
        yield
