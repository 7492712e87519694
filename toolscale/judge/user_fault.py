"""The user-fault check: recognise a rejected attempt that the simulated user broke, not the agent.

A conversational task is played against a user simulator (the scripted user,
`toolscale.dialogue.scripted_user`, or an LLM, `toolscale.play.usersim`). When the simulator
breaks the task, a correct agent fails, and counting that attempt as a negative example teaches a
policy to please one simulator's quirks (and `evaluate` to blame the policy for them). This check
reads the conversation, the task's user scenario and its gold route, and names what the user did:

- **withheld**: the agent asked for a detail the user holds (`scenario.known`, asked by the key's
  words, "booking id", or by the name of the gold argument that takes its value, "booking_id";
  a proposal that reads details back asks for none), the user answered without asking back why,
  and its value is in none of the user's messages (`stated` details are in the opening);
- **hung up**: the agent's message asked something (a question or a request, not "anything
  else?"), and the user never replied to it: the conversation ended on an open request;
- **turned down its own goal**: the user said no to the agent's proposal of the change its
  scenario calls for (a scenario that accepts changes and is not a change of mind; a proposal that
  names a gold write by its verb, "return", or by one of its values, "O317820").

It judges only an attempt rejected at `outcome` for what a user can cause (the final state is not
the gold state, or a required fact was not told) and that made no write the gold route lacks (a
wrong change is the agent's, whatever the user did next); such an attempt goes to the stage
`user`. It never passes an attempt, and it does not judge an attempt the teacher failed (no
answer, going in circles: the agent's). The gaming policy it must not open: an agent that asks
one question and stops, hoping the user's silence is blamed; that one ends its attempt on its own
request while the user still answers, and is rejected as before, since only a conversation the
user ended (no user message after the request) or a reply that withheld counts.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection, Sequence
from itertools import pairwise
from typing import Any

from toolscale.core.contract import ToolKind, canonical_json
from toolscale.core.records import Message, Task
from toolscale.core.registry import get_domain
from toolscale.core.sentences import sentences
from toolscale.judge.verify import Verdict

STAGE = "user"
# What a user can cause among the outcome stage's reasons (the rest are the agent's words).
_CAUSED = ("the final state differs from the gold final state", "required fact not stated")
_REQUEST = re.compile(
    r"\b(?:please|could you|can you|would you|tell me|let me know|provide|share|send|"
    r"give me|may i have|(?:i|we)(?:'ll| will| would|'d)? need|type|enter|reply|confirm)\b",
    re.IGNORECASE,
)
_PLEASANTRY = re.compile(
    r"\banything else\b|\bfurther (?:help|assistance|questions?)\b|\bother questions?\b|"
    r"\bsomething else\b|\bhelp (?:you )?with (?:today|anything)\b",
    re.IGNORECASE,
)
_PROPOSAL = re.compile(
    r"\b(?:shall|should|can|may) (?:i|we)\b|\b(?:do you want|would you like) (?:me|us) to\b|"
    r"\bproceed\b|\bgo ahead\b|\bconfirm\b|\b(?:ok|okay) to\b|\byes or no\b|\(yes/no\)",
    re.IGNORECASE,
)
# A proposal to act ("Shall I book ... (date 2025-11-14)?"): it reads details back, asks none.
_GO_AHEAD = re.compile(
    r"\b(?:shall|should|can|may) (?:i|we) (?!have\b|get\b|ask\b|know\b|take\b)|"
    r"\b(?:do you want|would you like) (?:me|us) to\b|\bproceed\b|\bgo ahead\b|\b(?:ok|okay) to\b",
    re.IGNORECASE,
)
_DECLINE = re.compile(
    r"^\W*(?:no\b|nope\b|don'?t\b|do not\b|please don'?t\b|please do not\b|leave it\b|"
    r"never ?mind\b|not now\b|i'?d rather (?:not|you didn'?t)\b|i don'?t want\b)"
    r"|\bdon'?t (?:change|do) (?:anything|that|it)\b",
    re.IGNORECASE,
)
_WHY = re.compile(r"\bwhy\b|\bwhat (?:for|do you need)\b", re.IGNORECASE)
_SYNONYMS = {
    "id": ("id", "number", "reference", "code", "#"),
    "number": ("number", "no", "#", "id"),
    "email": ("email", "e-mail", "mail"),
    "phone": ("phone", "telephone", "mobile", "number"),
}
_FILLER = {"of", "the", "a", "an", "for", "your", "my", "s"}


def write_tools(domain: str) -> frozenset[str]:
    """The names of the domain's WRITE tools (what a proposal of a change would run)."""
    specs = get_domain(domain).toolkit.specs()
    return frozenset(name for name, spec in specs.items() if spec.kind is ToolKind.WRITE)


def _words(text: str) -> set[str]:
    said = re.findall(r"[a-z0-9#]+", text.casefold().replace("e-mail", "email"))
    return {*said, *(w.removesuffix("s") for w in said)}


def _squeezed(text: str) -> str:
    return re.sub(r"[^a-z0-9@]", "", text.casefold())


def holds(text: str, value: str) -> bool:
    """Whether `text` gives `value`, spacing, case and punctuation ignored ("BK-12 34" gives
    "bk1234"); a value of no letter or digit is never given."""
    return bool(_squeezed(value)) and _squeezed(value) in _squeezed(text)


def _names(key: str, value: str, task: Task) -> list[list[str]]:
    """How the agent may ask for a detail: the key's words and each gold argument's name that
    takes its value ("booking_id" -> booking, id), filler words left out."""
    names = [key, *(n for a in task.gold_actions for n, v in a["arguments"].items() if v == value)]
    found = []
    for name in names:
        words = [w for w in re.findall(r"[a-z0-9]+", name.casefold()) if w not in _FILLER]
        if words and words not in found:
            found.append(words)
    return found


def _asking(message: str) -> list[str]:
    """The sentences of `message` that ask something (a question or a request), pleasantries
    such as "Is there anything else?" left out."""
    return [
        s
        for s in sentences(message)
        if (s.endswith("?") or _REQUEST.search(s)) and not _PLEASANTRY.search(s)
    ]


def _asks_for(sentence: str, names: list[list[str]]) -> bool:
    said = _words(sentence)
    return any(all(any(s in said for s in _SYNONYMS.get(w, (w,))) for w in n) for n in names)


def _talk(messages: Sequence[Message]) -> list[tuple[str, str]]:
    """The conversation as (role, text): the agent's texts to the user (turns without a call)
    and the user's replies."""
    return [
        (m.role, m.content)
        for m in messages
        if m.role == "user" or (m.role == "assistant" and m.content.strip() and not m.tool_calls)
    ]


def _wrong_writes(task: Task, messages: Sequence[Message], writes: Collection[str]) -> bool:
    """Whether the attempt made a write the gold route lacks, or one more often than it does."""
    gold = Counter(canonical_json(a) for a in task.gold_actions if a["name"] in writes)
    for m in messages:
        for call in m.tool_calls if m.role == "assistant" else ():
            if call.name not in writes:
                continue
            try:
                arguments: Any = json.loads(call.arguments)
            except ValueError:
                arguments = call.arguments
            made = canonical_json({"arguments": arguments, "name": call.name})
            if gold[made] == 0:
                return True
            gold[made] -= 1
    return False


def _proposes_goal(sentence: str, task: Task, writes: Collection[str]) -> bool:
    """Whether `sentence` proposes a change of the gold route: it asks for a yes and names a
    gold write by its verb or by a value of its arguments that holds a digit."""
    if not _PROPOSAL.search(sentence):
        return False
    said = re.findall(r"[a-z]+", sentence.casefold())
    for action in task.gold_actions:
        if action["name"] not in writes:
            continue
        verb = action["name"].split("_")[0].casefold()
        stem = verb[: max(4, len(verb) - 2)] if len(verb) > 4 else verb
        if any(w.startswith(stem) for w in said):
            return True
        values = [str(v) for v in action["arguments"].values() if re.search(r"\d", str(v))]
        if any(holds(sentence, v) for v in values):
            return True
    return False


def user_faults(task: Task, messages: Sequence[Message], writes: Collection[str]) -> list[str]:
    """What the user did to break the conversation (module docstring), one line each; empty when
    the user did nothing wrong or the task has no user. `writes`: the domain's WRITE tools.

    Example: the agent asks "Could you give me your booking id?", the scenario knows booking id
    BK1234, and the user answers "I can't find one." and never says BK1234: ["withheld: ..."]."""
    scenario = task.user_scenario
    if scenario is None or _wrong_writes(task, messages, writes):
        return []
    talk = _talk(messages)
    said_by_user = [text for role, text in talk if role == "user"]
    faults: list[str] = []
    for key, value in scenario.known.items():  # `stated` details are in the opening: given
        names = _names(key, value, task)
        if not names or any(holds(text, value) for text in said_by_user):
            continue
        for at, (role, text) in enumerate(talk):
            asks = [s for s in _asking(text) if not _GO_AHEAD.search(s)]  # not a read-back
            if role != "assistant" or not any(_asks_for(s, names) for s in asks):
                continue
            reply = next((t for r, t in talk[at + 1 :] if r == "user"), None)
            if reply is not None and not _WHY.search(reply):
                faults.append(f"user withheld: asked for its {key}, it never gave {value!r}")
                break
    answered = max((at for at, (role, _) in enumerate(talk) if role == "user"), default=-1)
    open_requests = [s for _, text in talk[answered + 1 :] for s in _asking(text)]
    if answered >= 0 and open_requests:  # the user ended the conversation on a request
        faults.append(f"user hung up on the agent's request: {open_requests[-1]!r}")
    if scenario.accepts_changes and scenario.behaviour != "change":
        for (role, text), (then, reply) in pairwise(talk):
            if role != "assistant" or then != "user" or not _DECLINE.search(reply):
                continue
            proposal = [s for s in _asking(text) if _proposes_goal(s, task, writes)]
            if proposal:
                faults.append(f"user turned down its own goal: {proposal[-1]!r} -> {reply!r}")
                break
    return faults


def user_caused(reasons: Sequence[str]) -> bool:
    """Whether every outcome reason is one a user can cause (a state or a fact left undone)."""
    return bool(reasons) and all(r.startswith(_CAUSED) for r in reasons)


def user_verdict(task: Task, messages: Sequence[Message], verdict: Verdict) -> Verdict:
    """`verdict`, or, for an outcome failure the user broke (module docstring), the verdict at
    stage `user` with what the user did before the outcome's reasons."""
    if verdict.failure_stage != "outcome" or not user_caused(verdict.reasons):
        return verdict
    faults = user_faults(task, messages, write_tools(task.domain))
    return Verdict(False, STAGE, faults + verdict.reasons) if faults else verdict
