"""The card's column glossary and token lengths: every column defined once, with the text its
Parquet column carries; prompt and completion tokens counted as stated; a 12-domain card under
12 KB."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.publishing_data import copy, shared
from toolscale.core.errors import ConfigError
from toolscale.publish.card import card
from toolscale.publish.card_lengths import completion_text, per_domain, prompt_text
from toolscale.write.features import FEATURES, GLOSSARY, description

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset() -> Path:
    out = shared()
    card(out)
    return out


def glossary_of(text: str) -> dict[str, str]:
    part = text.split("\n## Columns\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, str] = {}
    for name, meaning in re.findall(r"^- `(\w+)`: (.*)$", part, re.M):
        assert name not in found, f"{name} defined twice"
        found[name] = meaning
    return found


def test_the_glossary_defines_every_column_of_every_config_once():
    columns = {name for features in FEATURES.values() for name in features}
    assert set(GLOSSARY) == columns  # no column undefined, no definition of nothing
    assert all(text and "\n" not in text for text in GLOSSARY.values())


def test_the_card_defines_each_column_with_the_text_its_parquet_column_carries(dataset):
    shown = glossary_of((dataset / "README.md").read_text())
    for config in ("tasks", "traces", "rejected", "worlds"):
        shard = sorted((dataset / "data" / config).glob("*.parquet"))[0]
        schema = pq.read_schema(shard)
        for name in schema.names:
            assert shown[name] == GLOSSARY[name] == description(schema, name), (config, name)


def test_prompt_and_completion_texts_by_hand():
    task = {"system_prompt": "abcd", "instruction": "hi", "tools": "[]"}
    assert prompt_text(task) == "abcd\nhi\n[]"  # 11 characters: 3 tokens estimated
    call = {"name": "get", "arguments": '{"a":1}'}
    messages = [
        {"role": "system", "content": "policy", "tool_calls": []},
        {"role": "user", "content": "first", "tool_calls": []},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "content": "out", "tool_calls": []},
        {"role": "user", "content": "later", "tool_calls": []},
        {"role": "assistant", "content": "done", "tool_calls": []},
    ]
    assert completion_text(messages) == '\nget{"a":1}\nout\nlater\ndone'


def test_a_given_tokenizer_counts_the_card_lengths(dataset, tmp_path):
    from trainer.model import byte_tokenizer

    folder = tmp_path / "tok"
    byte_tokenizer().save_pretrained(folder)  # one token per byte: lengths computed by hand
    out = copy(dataset, tmp_path / "out")
    card(out, tokenizer=folder)
    text = (out / "README.md").read_text()
    assert "counted with the tokenizer of `tok`" in text
    tasks = [r for p in sorted((out / "data" / "tasks").glob("*.parquet"))
             for r in pq.read_table(p).to_pylist()]  # fmt: skip
    lengths = per_domain(out, lambda s: len(s.encode("utf-8")))
    for domain, found in lengths.items():
        longest = max(len(prompt_text(t).encode()) for t in tasks if t["domain"] == domain)
        assert found.prompt_max == longest
        row = next(ln for ln in text.splitlines() if ln.startswith(f"| {domain} |"))
        assert f"| {found.prompt_p50} / {found.prompt_max} |" in row
        assert f"| {found.completion_p50} / {found.completion_max} |" in row
    with pytest.raises(ConfigError, match="--tokenizer"):
        card(out, tokenizer=tmp_path / "missing")


def test_a_twelve_domain_card_stays_under_12_kb(tmp_path):
    out = tmp_path / "all"
    twelve = "bank,basketball,ecommerce,knowledge,math,medicine,movie,railway,restaurant,school"
    args = ["generate", "--domains", twelve + ",travel,weather", "--num-tasks", "36", "--detours"]
    result = subprocess.run(
        [sys.executable, "-m", "toolscale", *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    text = (out / "README.md").read_text()
    lines = text.split("\n| domain | tasks | templates |", 1)[1].splitlines()[2:]
    rows = [ln.split(" | ")[0] for ln in lines[: lines.index("")]]
    assert rows == [f"| {d}" for d in sorted([*twelve.split(","), "travel", "weather"])]
    assert len(text.encode("utf-8")) < 12_000
