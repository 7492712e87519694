"""A scripted model for synthesize-domain tests: the loopback OpenAI-compatible server of
tests/teachers/fake_openai.py, answering each topic's spec request with the bike_rental spec and
its files requests (first answer, then each repair) with the prepared files of
fixtures/cases.json: the bike_rental fixture (or the bundled restaurant domain) renamed to the
topic, with that round's edits. A topic not in the cases gets prose (no spec)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.teachers.fake_openai import Plans
from toolscale.domaingen.config import slug
from toolscale.domaingen.files import FILES, as_text
from toolscale.domaingen.prompts import example_files

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
TOPIC = re.compile(r"Design a toolscale domain about: (.+)\.")
PACKAGE = re.compile(r"as a kit v2 package named `([a-z0-9_]+)`")


def base_files(base: str, name: str) -> dict[str, str]:
    """The files of the fixture domain `base`, renamed to `name`."""
    if base == "restaurant":
        files = example_files(ROOT / "domains" / "restaurant", "domains.restaurant")
        old = '"restaurant"'
    else:
        files = {f: (FIXTURES / base / f).read_text() for f in FILES}
        old = f'"{base}"'
    files["__init__.py"] = files["__init__.py"].replace(f"name = {old}", f'name = "{name}"')
    return files


def case_files(topic: str, round_: int, fill: dict[str, str]) -> dict[str, str]:
    case = json.loads((FIXTURES / "cases.json").read_text())[topic]
    files = base_files(case["base"], slug(topic))
    edits = case["rounds"][min(round_, len(case["rounds"]) - 1)]
    for file, old, new in edits:
        assert old in files[file], f"case {topic}: {old!r} not in {file}"
        for key, value in fill.items():
            new = new.replace("{" + key + "}", value)
        files[file] = files[file].replace(old, new, 1)
    return files


class AuthorPlans(Plans):
    """Answers by the topic or package a request names; `fill` fills {PORT}, {HOME} in edits."""

    def __init__(self, fill: dict[str, str] | None = None) -> None:
        super().__init__({})
        self.fill = fill or {}
        self.asked: list[tuple[str, str, int]] = []  # (kind, topic or package, round)
        self.bodies: list[dict[str, Any]] = []  # every request, as sent

    def reply(self, body: dict[str, Any], authorization: str = "") -> tuple[str, Any]:
        self.bodies.append(body)
        messages = body["messages"]
        first = next(m["content"] for m in messages if m["role"] == "user")
        repair = sum(m["role"] == "assistant" for m in messages)
        cases = json.loads((FIXTURES / "cases.json").read_text())
        if (found := TOPIC.search(first)) is not None:
            topic = found.group(1)
            self.asked.append(("spec", topic, repair))
            if topic not in cases:
                return "json", self._answer("I would rather not.", body)
            spec = json.loads((FIXTURES / "bike_rental.spec.json").read_text())
            spec["name"] = slug(topic)
            return "json", self._answer(json.dumps(spec), body)
        package = PACKAGE.search(first)
        assert package is not None, first[:200]
        topic = next(t for t in cases if slug(t) == package.group(1))
        self.asked.append(("files", topic, self._round(messages)))
        files = case_files(topic, self._round(messages), self.fill)
        return "json", self._answer("Here are the files.\n\n" + as_text(files), body)

    @staticmethod
    def _round(messages: list[dict[str, Any]]) -> int:
        return sum(m["role"] == "assistant" for m in messages)

    def _answer(self, text: str, body: dict[str, Any]) -> dict[str, Any]:
        reply = self.completion("", 0, "", body)
        reply["choices"][0]["message"] = {"role": "assistant", "content": text}
        reply["usage"] = {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200}
        return reply
