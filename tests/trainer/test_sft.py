"""SFT on verified traces trains on the assistant's tokens only."""

from __future__ import annotations

import pytest

from toolscale.config.generate import GenerateConfig
from toolscale.pipeline.generate import generate
from trainer.data import sft_rows
from trainer.model import load
from trainer.sft import parse, sft_trainer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("sft") / "data"
    generate(GenerateConfig(domains=["math"], num_tasks=3, out=out, detours=True))
    return out


def runs(mask: list[bool]) -> list[tuple[int, int]]:
    """(start, end) of each run of True."""
    spans, start = [], None
    for i, flag in enumerate([*mask, False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            spans.append((start, i))
            start = None
    return spans


def test_only_assistant_tokens_have_labels(dataset, tmp_path):
    options, config = parse(
        [
            "--config",
            "trainer/configs/sft-cpu.yaml",
            "--dataset",
            str(dataset),
            "--output_dir",
            str(tmp_path / "run"),
        ]
    )
    assert config.assistant_only_loss
    rows = sft_rows(options)
    model, tokenizer = load(options.model)
    trainer = sft_trainer(config, model, tokenizer, rows)
    examples = [trainer.train_dataset[i] for i in range(len(trainer.train_dataset))]
    batch = trainer.data_collator(examples)
    assert len(examples) >= 3
    total = labelled = 0
    for row, ids, labels in zip(rows, batch["input_ids"], batch["labels"], strict=True):
        ids, labels = ids.tolist(), labels.tolist()
        trained = [label != -100 for label in labels]
        assert all(labels[i] == ids[i] for i in range(len(ids)) if trained[i])
        assistant = [m for m in row["messages"] if m["role"] == "assistant"]
        spans = runs(trained)
        # One labelled span per assistant turn: opened by the assistant header, closed by the
        # turn's end token, holding that turn's calls or answer and no other role's text.
        assert len(spans) == len(assistant)
        for (start, end), message in zip(spans, assistant, strict=True):
            before = tokenizer.decode(ids[:start])
            text = tokenizer.decode(ids[start:end])
            assert before.endswith("<|im_start|>assistant\n")
            assert text.removesuffix("\n").endswith("<|im_end|>")  # the stop token is trained
            for marker in ("<|im_start|>", "<tool_response>", "<tools>"):
                assert marker not in text
            for call in message["tool_calls"] or []:
                assert call["function"]["name"] in text
            if message["content"] and not message["tool_calls"]:
                assert message["content"].strip() in text
        total += sum(1 for i in ids if i != tokenizer.pad_token_id)
        labelled += sum(trained)
    assert 0 < labelled < 0.2 * total  # the prompt, schemas and tool results are most tokens
