"""The teacher options' defaults resolve per teacher and are written to run.json resolved: the
local 135M teacher gets a short answer length, an explicit value wins everywhere."""

from __future__ import annotations

from pathlib import Path

from toolscale.config.generate import GenerateConfig


def resolved(**options) -> dict:
    return GenerateConfig(domains=["math"], num_tasks=3, out=Path("out"), **options).resolved()


def test_answer_length_and_concurrency_defaults_per_teacher():
    local, remote = resolved(teacher="local"), resolved(teacher="openai", base_url="http://x/v1")
    assert (local["max_tokens"], local["concurrency"], local["endpoint_concurrency"]) == (256, 2, 2)
    assert (remote["max_tokens"], remote["concurrency"]) == (1024, 64)
    assert remote["base_url"] == ["http://x/v1"]
    assert resolved(teacher="local", max_tokens=64)["max_tokens"] == 64
    several = resolved(teacher="openai", base_url=("http://a/v1", "http://b/v1"), concurrency=8)
    assert several["base_url"] == ["http://a/v1", "http://b/v1"]
    assert several["endpoint_concurrency"] == 8
