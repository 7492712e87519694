"""`ask_expert`: model tools ("experts") expert-1/2/3, priced per token, as a Toolkit mixin.

No endpoint is configured in this version, so every expert is *simulated*: it answers the task's
question correctly with its stated accuracy and otherwise gives a plausible wrong answer. The
choice is a deterministic function of (task answer key, alias, question), so replaying a call
reproduces its output exactly. The answer key lives in the hidden state under "expert":
`{"answer": str, "distractors": [str, ...]}`; the model never sees the state.
Token counts are estimated from the text (about 4 characters per token) and marked simulated.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Literal

from toolscale.contract import ModelUsage, ToolError, ToolKind, Toolkit, ToolPrice, tool
from toolscale.tools.expert_endpoints import configured, endpoint_reply


@dataclass(frozen=True)
class SimulatedExpert:
    alias: str
    accuracy: float
    price: ToolPrice


EXPERTS: dict[str, SimulatedExpert] = {
    "expert-1": SimulatedExpert("expert-1", 0.95, ToolPrice(0, 2000, 1.25, 10.0)),
    "expert-2": SimulatedExpert("expert-2", 0.80, ToolPrice(0, 800, 0.60, 2.40)),
    "expert-3": SimulatedExpert("expert-3", 0.60, ToolPrice(0, 300, 0.10, 0.40)),
}


def expert_prices() -> dict[str, ToolPrice]:
    """Price-table entries of the expert aliases: a configured endpoint's prices, else the
    simulated expert's (per-token prices, simulated latency)."""
    prices = {alias: expert.price for alias, expert in EXPERTS.items()}
    for alias, endpoint in configured().items():
        prices[alias] = ToolPrice(0, 0, endpoint.input_per_m, endpoint.output_per_m)
    return prices


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def _wrong_answer(answer: str, distractors: list[str], rng: random.Random) -> str:
    try:
        value = float(answer)
    except ValueError:
        options = [d for d in distractors if d != answer] or [answer[::-1]]
        return rng.choice(options)
    offset = rng.choice([-10, -3, -2, -1, 1, 2, 3, 7, 10])
    wrong = value + offset
    return str(int(wrong)) if wrong.is_integer() else str(round(wrong, 2))


def simulated_reply(alias: str, question: str, key: dict) -> str:
    """The simulated expert's deterministic reply to `question`."""
    expert = EXPERTS[alias]
    digest = hashlib.sha256(f"{key['answer']}|{alias}|{question}".encode()).hexdigest()
    rng = random.Random(digest)
    if rng.random() < expert.accuracy:
        answer = key["answer"]
    else:
        answer = _wrong_answer(key["answer"], key.get("distractors", []), rng)
    return f"The answer is {answer}."


class ExpertTool(Toolkit):
    @classmethod
    def model_prices(cls) -> dict[str, ToolPrice]:
        return {**super().model_prices(), **expert_prices()}

    @tool(ToolKind.MODEL)
    def ask_expert(self, expert: Literal["expert-1", "expert-2", "expert-3"], question: str) -> str:
        """Ask an expert language model a question and get its answer. Experts are priced per
        token: expert-1 is the most accurate and most expensive and slowest, expert-3 the cheapest
        and fastest and least accurate. Experts can be wrong.

        Args:
            expert: Which expert to ask.
            question: The full question, with every detail the expert needs.
        """
        if expert not in EXPERTS:
            raise ToolError(f"unknown expert {expert!r}; choose one of {sorted(EXPERTS)}")
        endpoint = configured().get(expert)
        if endpoint is not None:
            reply, usage = endpoint_reply(expert, endpoint, question)
            self.record_usage(usage)
            return reply
        reply = simulated_reply(expert, question, self.state["expert"])
        self.record_usage(
            ModelUsage(
                model=expert,
                prompt_tokens=_tokens(question) + 16,
                completion_tokens=_tokens(reply),
                latency_ms=EXPERTS[expert].price.latency_ms,
                simulated=True,
            )
        )
        return reply
