"""Shared test setup: the faulty fixture domain is registered for every process."""

from __future__ import annotations

import os

os.environ["TOOLSCALE_DOMAINS"] = "faulty=tests.fixtures.faulty:FaultyDomain"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
