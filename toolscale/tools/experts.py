"""`ask_expert`: model tools ("experts") expert-1/2/3, priced per token, as a Toolkit mixin.

Without an endpoint file every expert is *simulated*, and it answers the question it is asked,
never the task's hidden answer (the state holds none): the domain's toolkit reads the question
(`expert_knowledge`: the math domain solves the word problem or arithmetic stated in it, the
knowledge domain looks up the entity and relation it names in the run's world). When the
question states what is needed, the expert is right with its stated accuracy and otherwise gives
a plausible wrong answer; when it does not, the expert says it cannot answer. Every choice is a
deterministic function of (alias, question), so replaying a call reproduces it exactly. Token
counts are simulated like a reasoning model's (a range per alias) and marked simulated; the
price table prices them. Endpoint-backed experts (`expert_endpoints`) send the question to a
real model instead.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Literal

from toolscale.contract import ModelUsage, ToolError, ToolKind, Toolkit, tool
from toolscale.prices import text_tokens
from toolscale.tools.arith import evaluate
from toolscale.tools.bounds import text
from toolscale.tools.expert_endpoints import configured, endpoint_reply

CANNOT = (
    "I cannot answer this: the question does not state the problem completely. "
    "Ask again with the full question and every detail it depends on."
)
SYSTEM_TOKENS = 16  # the simulated expert's own instructions, counted in its prompt


@dataclass(frozen=True)
class SimulatedExpert:
    alias: str
    accuracy: float
    # Completion tokens (reasoning included) of an answer: drawn in this range per question.
    tokens: tuple[int, int]


EXPERTS: dict[str, SimulatedExpert] = {
    "expert-1": SimulatedExpert("expert-1", 0.95, (2000, 4000)),
    "expert-2": SimulatedExpert("expert-2", 0.80, (900, 1800)),
    "expert-3": SimulatedExpert("expert-3", 0.60, (250, 600)),
}


def _wrong_answer(answer: str, alternatives: list[str], rng: random.Random) -> str:
    try:
        value = float(answer)
    except ValueError:
        options = [d for d in alternatives if d != answer] or [answer[::-1]]
        return rng.choice(options)
    offset = rng.choice([-10, -3, -2, -1, 1, 2, 3, 7, 10])
    wrong = value + offset
    return str(int(wrong)) if wrong.is_integer() else str(round(wrong, 2))


def simulated_answer(
    alias: str, question: str, known: tuple[str, list[str]] | None
) -> tuple[str, ModelUsage]:
    """(reply, usage) of simulated expert `alias` asked `question`, where `known` is what the
    question lets it work out: (the right answer, plausible wrong ones), or None."""
    expert = EXPERTS[alias]
    rng = random.Random(hashlib.sha256(f"{alias}|{question}".encode()).hexdigest())
    low, high = expert.tokens
    if known is None:
        reply, completion = CANNOT, low // 10
    else:
        answer, alternatives = known
        if rng.random() >= expert.accuracy:
            answer = _wrong_answer(answer, alternatives, rng)
        reply, completion = f"The answer is {answer}.", rng.randint(low, high)
    usage = ModelUsage(
        model=alias,
        prompt_tokens=text_tokens(question) + SYSTEM_TOKENS,
        completion_tokens=completion,
        latency_ms=0.0,  # modelled from the price table, like every latency
        simulated=True,
    )
    return reply, usage


def arithmetic_answer(question: str) -> str | None:
    """The value of a question that is a bare arithmetic expression ("What is 12 * 7?")."""
    text = question.strip().rstrip("?").strip()
    for prefix in ("what is", "compute", "calculate", "evaluate"):
        if text.casefold().startswith(prefix):
            text = text[len(prefix) :].strip()
    try:
        return evaluate(text) if text else None
    except ToolError:
        return None


class ExpertTool(Toolkit):
    @classmethod
    def models(cls) -> tuple[str, ...]:
        return (*super().models(), *EXPERTS)

    def expert_knowledge(self, question: str) -> tuple[str, list[str]] | None:
        """What a simulated expert can work out from `question` alone: (answer, plausible wrong
        answers), or None. Domains override this; the default reads bare arithmetic only."""
        answer = arithmetic_answer(question)
        return None if answer is None else (answer, [])

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
        text(question, "question")
        endpoint = configured().get(expert)
        if endpoint is not None:
            reply, usage = endpoint_reply(expert, endpoint, question)
            self.record_usage(usage)
            return reply
        reply, usage = simulated_answer(expert, question, self.expert_knowledge(question))
        self.record_usage(usage)
        return reply
