"""A model keeps the tool descriptions it was trained on, and evaluating it under other ones
warns, naming the tools (`trainer.tool_text`): a nano model evaluated after one sentence of
`answer`'s description changed fell from 1.013 to 0.617 mean reward, silently."""

from __future__ import annotations

import json
from pathlib import Path

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.environment import tool_schemas
from trainer.evaluate import EvaluateArguments, evaluation
from trainer.sft import sft
from trainer.tool_text import FILE, changed_tools, save_tool_text


def _schema(name: str, description: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": description}}


def test_only_a_changed_description_is_named(tmp_path: Path) -> None:
    save_tool_text(tmp_path, [_schema("answer", "Hand it over."), _schema("search", "Look.")])
    same = [_schema("answer", "Hand it over."), _schema("search", "Look.")]
    assert changed_tools(tmp_path, same) == ""
    other = [_schema("answer", "Hand it over; then say nothing."), _schema("search", "Look.")]
    warning = changed_tools(tmp_path, other)
    assert "other descriptions of answer than this code shows" in warning
    assert "search" not in warning
    # A tool the model never saw is not a changed one; a model without the record says nothing.
    assert changed_tools(tmp_path, [*same, _schema("calculator", "Add.")]) == ""
    assert changed_tools(tmp_path / "no-record", other) == ""
    (tmp_path / FILE).write_text("{not json")  # a damaged record says so, it does not crash
    assert "is not a record of tool schemas" in changed_tools(tmp_path, same)


def test_sft_records_what_it_showed_and_evaluate_warns_when_it_changed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    generate(GenerateConfig(domains=["orchestra"], num_tasks=12, out=data, seed=0))
    model = Path(
        sft(
            [
                "--model", "tiny-random", "--dataset", str(data), "--domains", "orchestra",
                "--max_steps", "1", "--use_cpu", "true", "--report_to", "none",
                "--save_strategy", "no", "--heldout_fraction", "0", "--output_dir",
                str(tmp_path / "sft"),
            ]
        )
    )  # fmt: skip
    recorded = json.loads((model / FILE).read_text())
    assert recorded == {"answer": tool_schemas("orchestra")[0]}
    options = EvaluateArguments(
        dataset=str(data), model=str(model), label="SFT", domains="orchestra", max_tasks=2,
        reference_rows=False, max_turns=1, max_new_tokens=8,
    )  # fmt: skip
    said: list[str] = []
    evaluation(options, said.append)
    assert not any("trained on other descriptions" in line for line in said)
    recorded["answer"]["function"]["description"] = "An older sentence."
    (model / FILE).write_text(json.dumps(recorded))
    said.clear()
    evaluation(options, said.append)
    assert any("other descriptions of answer than this code shows" in line for line in said)
