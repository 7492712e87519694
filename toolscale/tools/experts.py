"""`ask_expert`: model tools ("experts") expert-1/2/3, priced per token, as a Toolkit mixin.

Without an endpoint file every expert is *simulated*, and it answers the question it is asked,
never the task's hidden answer (the state holds none): the domain's toolkit reads the question
(`expert_knowledge`: the math domain solves the problem stated in it, the knowledge domain looks
up the entity and relation it names in the run's world) and says what kind of question it is and
how hard (`toolscale.tools.skills.Known`). The alias is then right with the probability its skill
profile gives for that kind and difficulty (`toolscale.tools.skills.PROFILES`) and otherwise
gives a plausible wrong answer; a question that does not state what is needed gets "cannot
answer" and the reason (`ExpertTool.expert_missing`: what detail it lacks). A question of several
parts (`question_parts`: several "?", or "Who founded X, and where was that founder born?") is
answered part by part, each part drawn as if asked alone, a part that starts from an earlier
part's answer from the answer drawn for it (`Known.follows`). Every choice is a deterministic
function of (alias, question), so replaying a call reproduces it exactly. A reply states the
answer and how many reasoning tokens the model spent; its completion tokens are those reasoning
tokens plus the reply's own, marked simulated, and the price table prices them. Endpoint-backed
experts (`expert_endpoints`) send the question to a real model instead.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import replace
from typing import Literal

from toolscale.core.contract import ModelUsage, ToolError, ToolKind, Toolkit, tool
from toolscale.economics.prices import text_tokens
from toolscale.tools.arith import evaluate
from toolscale.tools.bounds import text
from toolscale.tools.expert_endpoints import configured, endpoint_reply
from toolscale.tools.skills import PROFILES, Known, SkillProfile

INCOMPLETE = "the question does not state the problem completely"


def refusal(reason: str = INCOMPLETE) -> str:
    """What a simulated expert writes to a question it cannot answer, saying why."""
    return (
        f"I cannot answer this: {reason}. "
        "Ask again with the full question and every detail it depends on."
    )


CANNOT = refusal()  # the reply when no more precise reason is known
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


def _draw(alias: str, profile: SkillProfile, known: Known) -> tuple[str, float, int]:
    """(answer, confidence, reasoning tokens) of `alias` on the problem `known` states."""
    # Seeded by the problem the question states, not by its wording: two questions that state
    # the same problem (with or without the user's preference sentence, in other words, or as
    # one part of a longer question) get the same answer from an alias, as a model asked twice
    # at temperature 0 would give.
    problem = f"{known.kind}|{known.difficulty}|{known.answer}"
    rng = random.Random(hashlib.sha256(f"{alias}|{problem}".encode()).hexdigest())
    answer, p = known.answer, profile.p_correct(known.kind, known.difficulty)
    if rng.random() >= p:
        answer = _wrong_answer(answer, known.wrong, rng)
    return answer, p, rng.randint(*profile.reasoning[known.difficulty])


def _drawn_parts(
    alias: str, profile: SkillProfile, parts: tuple[Known, ...]
) -> list[tuple[str, float, int]]:
    """Each part drawn as if asked alone, except that a part which starts from an earlier
    part's answer starts from the answer drawn for it: an expert that names a wrong mentor gives
    that person's birth town, as a model reasoning along its own chain would."""
    drawn: list[tuple[str, float, int]] = []
    said: dict[int, str] = {}
    for part in parts:
        asked, first = part, part.follows
        before = said.get(id(first)) if first is not None else None
        if first is not None and part.given is not None and before not in (None, first.answer):
            asked = part.given(str(before)) or part
        drawn.append(_draw(alias, profile, asked))
        said[id(part)] = drawn[-1][0]
    return drawn


def parts_text(answers: list[tuple[str, float]], reasoning: int) -> str:
    """What a simulated expert writes to a question of several parts: each part's answer."""
    said = " ".join(f"Part {n}: {a}." for n, (a, _) in enumerate(answers, 1))
    confidences = ", ".join(f"{p:.2f}" for _, p in answers)
    return f"{said} (Confidences {confidences}; reasoned for {reasoning:,} tokens, not shown.)"


def simulated_answer(
    alias: str,
    question: str,
    known: Known | None,
    profile: SkillProfile | None = None,
    missing: str = INCOMPLETE,
) -> tuple[str, ModelUsage]:
    """(reply, usage) of simulated expert `alias` (with skill `profile`, by default its own)
    asked `question`, where `known` is what the question lets it work out, or None (then the
    reply says it cannot answer, because of `missing`)."""
    profile = profile or PROFILES[alias]
    if known is None:
        rng = random.Random(hashlib.sha256(f"{alias}|{question}".encode()).hexdigest())
        reasoning = rng.randint(*profile.reasoning["easy"]) // 4
        reply = refusal(missing)
    elif known.parts:
        drawn = _drawn_parts(alias, profile, known.parts)
        reasoning = sum(r for _, _, r in drawn)
        reply = parts_text([(a, p) for a, p, _ in drawn], reasoning)
    else:
        answer, p, reasoning = _draw(alias, profile, known)
        reply = reply_text(answer, p, reasoning)
    usage = ModelUsage(
        model=alias,
        prompt_tokens=text_tokens(question) + SYSTEM_TOKENS,
        completion_tokens=reasoning + text_tokens(reply),  # what it thought and what it wrote
        latency_ms=0.0,  # modelled from the price table, like every latency
        simulated=True,
    )
    return reply, usage


# A numbered item ("(1) ", "2) "), and "and", "," or ";" before a new question word.
_ITEM = re.compile(r"\(\d{1,2}\)\s*|(?<![\w.(])\d{1,2}\)\s+")
_CLAUSE = re.compile(
    r"(?:,?\s+and|;|,)\s+(?=(?:(?:in|into|from|at|by|to) )?"
    r"(?:who|whom|whose|where|which|what|when|how)\b)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!:])\s+")
_LEADING = re.compile(r"^(?:and|also|then|next|plus)\b,?\s*", re.IGNORECASE)


def question_parts(question: str) -> list[str]:
    """The questions `question` asks, in order, each ending in "?": every sentence that ends in
    "?" with the statements before it (which state its problem), numbered items, and the clauses
    of one sentence joined by "and" before a new question word ("Who founded X, and where was
    that founder born?" is two). Text after the last "?" (instructions) is no part."""
    parts: list[str] = []
    chunks = question.split("?")[:-1]
    for chunk in chunks:
        items = [i for i in _ITEM.split(chunk) if i.strip()]
        context, asked = "", items[-1] if items else ""
        if len(items) == 1:  # statements before the question sentence state its problem
            sentences = _SENTENCE.split(asked.strip())
            context, asked = " ".join(sentences[:-1]), sentences[-1]
        clauses = [_LEADING.sub("", c.strip(" ,")) for c in _CLAUSE.split(asked) if c.strip(" ,")]
        for n, clause in enumerate(clauses):
            parts.append(f"{context} {clause}?".strip() if n == 0 else f"{clause}?")
    return parts


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


class ExpertReading(Toolkit):
    """How a domain's simulated experts read a question, and what they reply: the part of the
    expert tools that is no tool itself (`ExpertTool` asks with a question the caller writes,
    `toolscale.tools.delegate.AnswerTool` hands over the user's own)."""

    @classmethod
    def models(cls) -> tuple[str, ...]:
        return (*super().models(), *EXPERTS)

    def expert_knowledge(self, question: str) -> Known | None:
        """What a simulated expert can work out from `question` alone, or None. Domains override
        this; the default reads bare arithmetic only."""
        answer = arithmetic_answer(question)
        return None if answer is None else Known(answer, kind="arithmetic", difficulty="easy")

    def expert_missing(self, question: str) -> str:
        """Why a simulated expert cannot answer `question`: the detail it lacks, as a model would
        say it. Domains override this; the default says the problem is not stated whole."""
        return INCOMPLETE

    def expert_parts(self, question: str) -> list[Known | None]:
        """Each part's reading (`question_parts`), or None for a part not understood. Domains
        whose parts refer back ("where was that founder born?") override this."""
        return [self.known_alone(part) for part in question_parts(question)]

    def known_alone(self, question: str) -> Known | None:
        """`expert_knowledge`, with a domain's older (answer, wrong answers) pair read as Known."""
        found = self.expert_knowledge(question)
        if isinstance(found, tuple):
            return Known(found[0], list(found[1]))
        return found

    def known(self, question: str) -> Known | None:
        """What a simulated expert works out from `question`: a question of two or more parts it
        understands is answered part by part (`Known.parts`); otherwise the question read whole,
        or else the one part it understands (a question with a preamble), or None."""
        whole = self.known_alone(question)
        if not question_parts(question):
            return whole
        answered = [p for p in self.expert_parts(question) if p is not None]
        if len(answered) >= 2:
            return replace(answered[-1], parts=tuple(answered))
        return whole or (answered[0] if answered else None)

    def delegated_question(self) -> str:
        """The question a delegated call hands over (`toolscale.tools.delegate`): the user's,
        as the domain put it in the task's state."""
        return str(self.state["question"])

    def expert_reply(self, expert: str, question: str) -> str:
        """What `expert` replies to `question` (its endpoint's answer where one is configured,
        else the simulated alias's), the call priced from its tokens."""
        if expert not in EXPERTS:
            raise ToolError(f"unknown expert {expert!r}; choose one of {sorted(EXPERTS)}")
        text(question, "question")
        endpoint = configured().get(expert)
        if endpoint is not None:
            reply, usage = endpoint_reply(expert, endpoint, question)
            self.record_usage(usage)
            return reply
        known = self.known(question)
        missing = INCOMPLETE if known else self.expert_missing(question)
        reply, usage = simulated_answer(expert, question, known, missing=missing)
        self.record_usage(usage)
        return reply


class ExpertTool(ExpertReading):
    @tool(ToolKind.MODEL)
    def ask_expert(self, expert: Literal["expert-1", "expert-2", "expert-3"], question: str) -> str:
        """Ask an expert language model a question and get its answer. Experts are priced per
        token (their reasoning included) and can be wrong; each is good at different kinds of
        question: the system prompt says how often each was right on this domain's questions.

        Args:
            expert: Which expert to ask.
            question: The full question, with every detail the expert needs.
        """
        return self.expert_reply(expert, question)
