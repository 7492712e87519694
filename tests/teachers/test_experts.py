"""Expert model tools backed by a real (loopback) endpoint: priced from real usage, grounded on
replay through the expert cache, and a bad experts file is a one-line ConfigError."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.teachers.fake_openai import FakeOpenAI, Plans
from toolscale.config.generate import GenerateConfig
from toolscale.core.errors import ConfigError
from toolscale.pipeline.generate import generate
from toolscale.tools.expert_endpoints import load_endpoints

pytestmark = pytest.mark.slow


def test_a_configured_expert_calls_its_endpoint_and_replays_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPERT_KEY", "sk-expert")
    with FakeOpenAI(Plans({})) as server:
        experts = tmp_path / "experts.yaml"
        experts.write_text(
            f"expert-1:\n  base_url: {server.base_url}\n  model: real-expert\n"
            "  api_key_env: EXPERT_KEY\n  input_per_m: 1000\n  output_per_m: 2000\n"
        )
        out = tmp_path / "out"
        config = GenerateConfig(
            domains=["math"], num_tasks=6, out=out, detours=True, experts=experts
        )
        summary = generate(config)
        asked = {b["messages"][0]["content"] for b in server.plans.bodies}
        requests = server.plans.requests
    assert summary["experts"]["expert-1"]["backend"] == "endpoint"
    assert summary["experts"]["expert-2"]["backend"] == "simulated"
    rows = [
        r
        for c in ("traces", "rejected")
        for p in (out / "data" / c).glob("*.parquet")
        for r in pq.read_table(p).to_pylist()
    ]
    calls = [c for r in rows for c in r["tool_calls"] if c["model"] == "expert-1"]
    assert calls, "the detours include expert routes"
    for call in calls:
        # The fake endpoint reports 7 completion tokens; the price table is the YAML's.
        assert call["completion_tokens"] == 7 and call["output"] == "I cannot help with that."
        tokens = (call["prompt_tokens"] * 1000 + 7 * 2000) / 1e6
        assert call["cost"] == pytest.approx(tokens)
    # Verification replays every call; the replays read the cache: one request per question.
    assert requests == len(asked)
    assert "grounding" not in summary["rejected_by_stage"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expert-9:\n  base_url: x\n  model: m\n", "unknown alias 'expert-9'"),
        ("expert-1:\n  model: m\n", "expert-1.base_url"),
        ("expert-1:\n  base_url: x\n  model: m\n  api_key_env: UNSET_VAR_X\n", "UNSET_VAR_X"),
    ],
)
def test_a_bad_experts_file_says_what_to_fix(tmp_path, text, message):
    path = tmp_path / "experts.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_endpoints(path)
