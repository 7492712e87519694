"""The nano-orchestrator recipe, reduced: a from-scratch model trained with SFT on the training
side of a content-disjoint split calls real tools on the held-out side, in the format the
trainer parses, and takes the oracle's route class more often than the very model it started
from (which calls nothing); the table says, under it, whether training helped. A test that can
fail: an SFT that teaches no calls leaves the trained row's route = oracle share at the base
row's (0).

Issue 48 asks for more: held-out mean reward above the base row's. It is not reached at this
budget, nor at any budget measured on 2 cores (benchmarks/RESULTS.md, "Nano-orchestrator" and
"More data, digit tokens, more steps": 3,000 tasks, one token per digit, 700 SFT steps, 0 of 100
held-out tasks solved, SFT minus base -0.23): SFT learns which tool to call before it learns to
copy the call's arguments, so its calls cost and its answers are wrong, and an untrained model
that answers nothing scores higher. When a budget gets there, `REWARD_BEATS_BASE` turns that
check on (it fails today: measured -0.093 vs 0.064 at this budget)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.evaluate import BASE, EvaluateArguments, evaluation
from trainer.nano import save_base
from trainer.sft import sft

pytestmark = pytest.mark.slow

CONFIG = Path(__file__).resolve().parents[2] / "trainer" / "configs" / "nano-orchestrator.yaml"
TASKS, STEPS, HELDOUT = 300, 200, 40
REWARD_BEATS_BASE = False


# Minutes on a quiet 2-core machine; the suite's 300 s default is for one step, not a recipe.
@pytest.mark.timeout(1500)
def test_sft_routes_held_out_tasks_better_than_the_untrained_model(tmp_path: Path) -> None:
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=TASKS, out=data, seed=0))
    base = save_base(data, tmp_path / "base", "math", 0.2)
    sft(
        [
            "--config", str(CONFIG), "--model", str(base), "--dataset", str(data),
            "--domains", "math", "--max_steps", str(STEPS), "--output_dir",
            str(tmp_path / "sft"),
        ]
    )  # fmt: skip
    table = evaluation(
        EvaluateArguments(
            dataset=str(data),
            model=str(tmp_path / "sft"),
            label="SFT",
            base_model=str(base),
            split="heldout",
            heldout_fraction=0.2,
            domains="math",
            max_tasks=HELDOUT,
            reference_rows=False,
            max_turns=3,
            max_new_tokens=96,
            batch_size=40,
        )
    )
    trained, untrained = table.row("SFT"), table.row(BASE)
    assert trained.tasks == untrained.tasks == HELDOUT
    assert untrained.oracle_route_share == 0.0  # the untrained model calls no tool
    # SFT learnt the call format (parsed calls of real tools on most tasks) and routes better
    # than base (measured on a shared machine: calls on 39 of 40, route = oracle 0.20).
    calls = sum(n for c, row in trained.confusion.items() if c != "no_tool" for n in row.values())
    assert calls >= HELDOUT // 2, table.to_markdown()
    assert trained.oracle_route_share >= 0.1, table.to_markdown()
    if REWARD_BEATS_BASE:
        assert trained.mean_reward > untrained.mean_reward, table.to_markdown()
    assert any(n.startswith("Did training help?") for n in table.about["notes"])
    assert "small_sample_warning" in table.about  # 40 tasks: the table says it is too few
