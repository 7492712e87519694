"""The nano-orchestrator recipe, reduced: a from-scratch model trained with SFT on the training
side of a content-disjoint split scores a higher mean reward on the held-out side than the very
model it started from. A test that can fail: an SFT that teaches nothing, or teaches calls that
cost more than they earn, leaves the trained row at or below the base row."""

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
TASKS, STEPS, HELDOUT = 300, 60, 40


# Minutes on a quiet 2-core machine; the suite's 300 s default is for one step, not a recipe.
@pytest.mark.timeout(1500)
def test_sft_beats_the_untrained_model_on_held_out_tasks(tmp_path: Path) -> None:
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
    assert trained.mean_reward > untrained.mean_reward, table.to_markdown()
    assert any(n.startswith("Did training help?") for n in table.about["notes"])
    assert "small_sample_warning" in table.about  # 40 tasks: the table says it is too few
