"""`ask_expert`: model tools ("experts") expert-1/2/3, priced per token, as a Toolkit mixin.

Without an endpoint file every expert is *simulated*, and it answers the question it is asked,
never the task's hidden answer (the state holds none): the domain's toolkit reads the question
(`expert_knowledge`: the math domain solves the problem stated in it, the knowledge domain looks
up the entity and relation it names in the run's world) and says what kind of question it is and
how hard (`toolscale.tools.skills.Known`). The alias is then right with the probability its skill
profile gives for that kind and difficulty (`toolscale.tools.skills.PROFILES`) and otherwise
gives a plausible wrong answer; a question that does not state what is needed gets "cannot
answer". Every choice is a deterministic function of (alias, question), so replaying a call
reproduces it exactly. A reply states the answer and how many reasoning tokens the model spent;
its completion tokens are those reasoning tokens plus the reply's own, marked simulated, and the
price table prices them. Endpoint-backed experts (`expert_endpoints`) send the question to a
real model instead.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Literal

from toolscale.core.contract import ModelUsage, ToolError, ToolKind, Toolkit, tool
from toolscale.economics.prices import text_tokens
from toolscale.tools.arith import evaluate
from toolscale.tools.bounds import text
from toolscale.tools.expert_endpoints import configured, endpoint_reply
from toolscale.tools.skills import PROFILES, Known, SkillProfile

CANNOT = (
    "I cannot answer this: the question does not state the problem completely. "
    "Ask again with the full question and every detail it depends on."
)
SYSTEM_TOKENS = 16  # the simulated expert's own instructions, counted in its prompt
EXPERTS = PROFILES  # the aliases ask_expert offers, each with its skill profile


def _wrong_answer(answer: str, alternatives: list[str], rng: random.Random) -> str:
    try:
        value = float(answer)
    except ValueError:
        options = [d for d in alternatives if d != answer] or [answer[::-1]]
        return rng.choice(options)
    offset = rng.choice([-10, -3, -2, -1, 1, 2, 3, 7, 10])
    wrong = value + offset
    return str(int(wrong)) if wrong.is_integer() else str(round(wrong, 2))


def reply_text(answer: str, confidence: float, reasoning: int) -> str:
    """What a simulated expert writes: its answer, its (calibrated) confidence, and how many
    reasoning tokens it spent (not shown)."""
    return (
        f"The answer is {answer}. (Confidence {confidence:.2f}; reasoned for {reasoning:,} "
        "tokens, not shown.)"
    )


_CONFIDENCE = re.compile(r"\(Confidence (\d(?:\.\d+)?);")


def reply_confidence(reply: str) -> float | None:
    """The confidence a simulated expert's reply states, or None."""
    found = _CONFIDENCE.search(reply)
    return float(found.group(1)) if found else None


def simulated_answer(
    alias: str, question: str, known: Known | None, profile: SkillProfile | None = None
) -> tuple[str, ModelUsage]:
    """(reply, usage) of simulated expert `alias` (with skill `profile`, by default its own)
    asked `question`, where `known` is what the question lets it work out, or None."""
    profile = profile or PROFILES[alias]
    # Seeded by the problem the question states, not by its wording: two questions that state
    # the same problem (with or without the user's preference sentence, in other words) get the
    # same answer from an alias, as a model asked twice at temperature 0 would give.
    problem = question if known is None else f"{known.kind}|{known.difficulty}|{known.answer}"
    rng = random.Random(hashlib.sha256(f"{alias}|{problem}".encode()).hexdigest())
    if known is None:
        reasoning = rng.randint(*profile.reasoning["easy"]) // 4
        reply = CANNOT
    else:
        answer, p = known.answer, profile.p_correct(known.kind, known.difficulty)
        if rng.random() >= p:
            answer = _wrong_answer(answer, known.wrong, rng)
        reasoning = rng.randint(*profile.reasoning[known.difficulty])
        reply = reply_text(answer, p, reasoning)
    usage = ModelUsage(
        model=alias,
        prompt_tokens=text_tokens(question) + SYSTEM_TOKENS,
        completion_tokens=reasoning + text_tokens(reply),  # what it thought and what it wrote
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

    def expert_knowledge(self, question: str) -> Known | None:
        """What a simulated expert can work out from `question` alone, or None. Domains override
        this; the default reads bare arithmetic only."""
        answer = arithmetic_answer(question)
        return None if answer is None else Known(answer, kind="arithmetic", difficulty="easy")

    def known(self, question: str) -> Known | None:
        """`expert_knowledge`, with a domain's older (answer, wrong answers) pair read as Known."""
        found = self.expert_knowledge(question)
        if isinstance(found, tuple):
            return Known(found[0], list(found[1]))
        return found

    @tool(ToolKind.MODEL)
    def ask_expert(self, expert: Literal["expert-1", "expert-2", "expert-3"], question: str) -> str:
        """Ask an expert language model a question and get its answer. Experts are priced per
        token (their reasoning included) and can be wrong; each is good at different kinds of
        question: the system prompt says how often each was right on this domain's questions.

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
        reply, usage = simulated_answer(expert, question, self.known(question))
        self.record_usage(usage)
        return reply
