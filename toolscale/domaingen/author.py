"""One topic through the stages: spec, files, gates; each stage's problems go back to the model
for at most `repairs` rounds (a contained or near-duplicate domain is not repaired).

The model is asked through the run's endpoint pool (cached, retried, on the run's budget); the
tokens of every answer are counted by the kind of request that asked for it (spec, files,
repair). A request that fails for good rejects the topic at its stage; a spent budget stops the
run (`StopRun` goes up). Nothing here imports the code the model wrote.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscale.domaingen import files as package_files
from toolscale.domaingen import prompts, spec
from toolscale.domaingen.config import DomainGenConfig
from toolscale.domaingen.gates import GateOutcome, run_all
from toolscale.llm.client import Chat, TeacherFailure


@dataclass
class Usage:
    """Tokens and dollars by request kind; `cached` answers cost nothing."""

    price_in: float
    price_out: float
    kinds: dict[str, dict[str, float]] = field(default_factory=dict)

    def add(self, kind: str, prompt: int, completion: int, cached: bool) -> None:
        row = self.kinds.setdefault(
            kind, {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0, "usd": 0.0}
        )
        row["requests"] += 1
        row["prompt_tokens"] += prompt
        row["completion_tokens"] += completion
        if not cached:
            row["usd"] += (prompt * self.price_in + completion * self.price_out) / 1e6

    def total_usd(self) -> float:
        return sum(row["usd"] for row in self.kinds.values())


@dataclass
class Authored:
    """What became of one topic: its stage (or "accepted"), the problems there, the files last
    written, repair rounds per stage, usage and what the gates measured."""

    topic: str
    name: str
    stage: str = "spec"
    problems: list[str] = field(default_factory=list)
    spec: dict[str, Any] | None = None
    files: dict[str, str] = field(default_factory=dict)
    answer: str = ""  # the model's last answer, as it wrote it
    repairs: dict[str, int] = field(default_factory=dict)
    contained: bool = False
    measured: dict[str, Any] = field(default_factory=dict)
    shingles: set[str] = field(default_factory=set)
    wall_s: float = 0.0


class Author:
    """Asks `client` for one topic's domain and runs its gates (see the module docstring)."""

    def __init__(
        self, config: DomainGenConfig, client: Chat, usage: Usage, kit_doc: str,
        example: tuple[str, dict[str, str]], work: Path,
    ) -> None:  # fmt: skip
        self.config, self.client, self.usage = config, client, usage
        self.kit_doc, self.example, self.work = kit_doc, example, work
        self.answer = ""

    async def _ask(self, messages: list[dict[str, str]], kind: str, key: dict[str, Any]) -> str:
        params = {
            "temperature": self.config.sampling_temperature(),
            "max_tokens": self.config.effective_max_tokens(self.config.teacher == "local"),
            **{f"_{k}": v for k, v in key.items()},  # shapes the cache key only
        }
        done = await self.client.complete(messages, [], params)
        self.usage.add(kind, done.prompt_tokens, done.completion_tokens, done.cached)
        self.answer = str(done.message.get("content") or "")
        return self.answer

    def _round(self, result: Authored, stage: str) -> int | None:
        """The next repair round of `stage`, or None when its rounds are spent."""
        used = result.repairs.get(stage, 0)
        if used >= self.config.repairs:
            return None
        result.repairs[stage] = used + 1
        return used + 1

    async def write(self, topic: str, name: str, others: dict[str, set[str]]) -> Authored:
        started = time.perf_counter()
        result = Authored(topic, name)
        self.answer = ""
        try:
            await self._write(result, others)
        except TeacherFailure as failure:
            result.problems = [f"the endpoint failed: {failure.reason}"]
        result.answer = self.answer
        result.wall_s = round(time.perf_counter() - started, 3)
        return result

    async def _write(self, result: Authored, others: dict[str, set[str]]) -> None:
        config, name = self.config, result.name
        min_goals = max(3, config.min_templates // 3)
        asked = prompts.spec_messages(result.topic, name, config.min_tools, min_goals)
        answer = await self._ask(asked, "spec", {"stage": "spec", "topic": name})
        found, problems = spec.parse(answer, config.min_tools)
        while problems and (n := self._round(result, "spec")) is not None:
            messages = prompts.repair_messages(asked, answer, "spec", problems)
            answer = await self._ask(messages, "repair", {"stage": "spec", "round": n})
            found, problems = spec.parse(answer, config.min_tools)
        result.spec = found
        if problems or found is None:
            result.stage, result.problems = "spec", problems
            return
        asked = prompts.files_messages(found, name, self.kit_doc, *self.example)
        answer = await self._ask(asked, "files", {"stage": "files", "topic": name})
        stage = "files"
        while True:
            written, problems = package_files.parse(answer)
            result.files = written
            outcome = GateOutcome("files", problems, True)
            if not problems:
                package_files.write_package(self.work / name, written)
                outcome = await asyncio.to_thread(run_all, config, self.work, name, others)
            stage = outcome.stage
            if outcome.accepted or not outcome.repairable:
                break
            n = self._round(result, stage)
            if n is None:
                break
            messages = prompts.repair_messages(asked, answer, stage, outcome.problems)
            answer = await self._ask(messages, "repair", {"stage": stage, "round": n})
        result.stage, result.problems = stage, outcome.problems
        result.contained, result.measured = outcome.contained, outcome.measured
        result.shingles = outcome.shingles
