"""Shared test setup: the faulty fixture domain is registered for every process."""

from __future__ import annotations

import os
import tempfile

os.environ["TOOLSCALE_DOMAINS"] = "faulty=tests.fixtures.faulty:FaultyDomain"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# A fresh datasets cache per test session: it keys loaded folders by name, so two outputs with
# the same folder name in one session could otherwise be served from a stale cache.
os.environ.setdefault("HF_DATASETS_CACHE", tempfile.mkdtemp(prefix="toolscale-hf-cache-"))
