"""How a caller says a preference profile: the sentences a task's instruction ends with.

One wording is drawn per task from its preference RNG (the profile and its checks do not depend
on the wording; `toolscale.economics.preferences` draws the profile). A caller never names a
tool: a tool to avoid is said as what it does or looks up (`avoid_saying`). This module decides
nothing about which tool a task may avoid (`preferences.plausible_avoid`).
"""

from __future__ import annotations

import random

# How a caller says each profile, one wording drawn per task from its preference RNG (the
# profile and its checks do not depend on the wording). A caller never names a tool: a tool to
# avoid is said as what it does (`avoid_tool`).
JSON_INSTRUCTION = (
    'Answer as JSON: {"answer": "<your answer>", "confidence": <a number between 0 and 1>}.'
)
SAYINGS = {
    "hurry": (
        "I'm in a hurry: please be quick and don't take more steps than needed.",
        "Please be quick about it, I haven't got long.",
        "I'm pressed for time, so the faster the better.",
        "Could you keep it quick? I'm in a rush.",
        "Speed matters most to me today.",
        "Please don't dawdle; I need this sorted fast.",
        "As quick as you can, please, with no extra steps.",
        "I'm short on time, so please get straight to it.",
    ),
    "cheap": (
        "Keep it cheap: do it the least expensive way you can.",
        "Please keep the cost of this down.",
        "I'd like this done as cheaply as possible.",
        "Don't run up any costs you don't have to, please.",
        "The cheaper the better for me.",
        "Please go for the least expensive way of doing this.",
        "I'm watching every penny, so keep it cheap.",
        "No expensive extras, please; the cheapest way is fine.",
    ),
    "json_confidence": (
        JSON_INSTRUCTION,
        'Please reply with a JSON object: your answer under "answer", and how sure you are, '
        'from 0 to 1, under "confidence".',
        'I need a JSON reply with two fields, "answer" (a string: the answer itself) and '
        '"confidence" (a number between 0 and 1).',
        'Format your final reply as JSON, for example {"answer": "...", "confidence": 0.9}, '
        "with a confidence from 0 to 1.",
        'Write your reply as a JSON object holding "answer" (text) and "confidence" (0 for a '
        "guess, 1 for certain).",
    ),
}
# A caller in a chat asks for the final summary in JSON, not every reply: the conversation
# goes on in words (the verifier reads only the final message).
JSON_IN_CHAT = (
    "When we are done, please give me your final summary as a JSON object: the summary under "
    '"answer" and how sure you are, from 0 to 1, under "confidence". Until then, just talk to me.',
    'Once everything is sorted, could you end with a JSON summary, {"answer": "<what you did or '
    'found>", "confidence": <0 to 1>}? Normal replies before that are fine.',
    'At the very end, please wrap up in JSON with "answer" (a summary, as text) and '
    '"confidence" (a number from 0 to 1); talk normally until then.',
    'Your last message should be JSON: "answer" for the summary, "confidence" from 0 to 1.',
    'Only your final reply in JSON, please, with "answer" and a "confidence" between 0 and 1.',
    'Close with a JSON object of "answer" (what happened) and "confidence" (0-1); plain '
    "replies until then.",
)
# Hurry sayings that a patient caller can say without contradicting their manner ("polite and
# patient" callers are not "pressed for time"): the steps, not the caller's impatience.
CALM_HURRY = (
    "If you could keep the steps to a minimum, I'd appreciate it.",
    "I'd be grateful if you could do this in as few steps as possible.",
    "Please take no more steps than needed.",
    "A short way through this would suit me best.",
    "If it can be done in one or two steps, that would be lovely.",
    "The fewer steps the better, if that's all right.",
)
PATIENT_MANNERS = ("polite", "unsure")
# What a caller says to keep the agent off a tool, for the tools a user names by what they do;
# any other tool is said as the thing it looks up (`avoid_saying`).
_NO_CALCULATOR = (
    "Please do any sums yourself rather than with a calculator.",
    "No calculator, please; work the numbers out yourself.",
)
_TOOL_SAYINGS = {
    "search": ("Don't use web search.", "Please don't search the web for this."),
    "ask_expert": (
        "Don't ask the expert models; work it out with the other tools.",
        "Please work it out yourself rather than asking the expert models.",
    ),
    "code_executor": ("Don't run any code.", "Please don't write or run any programs."),
    "transfer_to_human_agents": (
        "Don't transfer me to a human agent.",
        "Please don't pass me on to a human agent.",
        "I'd rather not be handed over to someone else.",
        "Please sort this out with me yourself rather than handing me off.",
        "Keep me with you, please, rather than putting me through to a colleague.",
        "I don't want to be passed along to another person.",
    ),
    "calculate": _NO_CALCULATOR,
    "calculator": _NO_CALCULATOR,
}
_LOOK_UP = (
    "Please don't look up {thing}; I don't need that.",
    "No need to pull up {thing}.",
    "Please skip checking {thing}.",
    "I'd rather you didn't look at {thing}.",
)  # not "leave {thing} out of it": said of the booking a caller asks to move, it forbids the move
_VERBS = {"get", "list", "find", "search", "lookup", "look", "check", "fetch", "read", "show"}
# A tool named for another verb is said as that verb's noun: quote_stay -> "the quote for the stay".
_VERB_NOUNS = {"quote": "quote for", "track": "tracking of", "price": "price of"}
# Words naming the caller's own records: list_customer_orders -> "my orders".
_OWNERS = {"customer", "fan", "patient", "traveller", "guardian", "member", "user", "account"}
_TAILS = {"by", "on", "for", "of", "in", "at", "from", "to"}


def _thing(words: list[str]) -> str:
    """What a caller calls the records a tool's name (less its verb) reads: ["customer", "by",
    "email"] -> "my customer record", ["fan", "season", "passes"] -> "my season passes"."""
    if "by" in words[1:]:
        words = words[: words.index("by", 1)]
    if words[-1] in ("email", "phone") and len(words) > 1:
        words = words[:-1]
    while len(words) > 1 and words[-1] in _TAILS:
        words = words[:-1]
    if words[0] in _OWNERS:
        rest = words[1:] if words[1:] not in ([], ["details"]) else [words[0], *words[1:]]
        return "my " + " ".join(rest or [words[0]]) + " record" * (not words[1:])
    return "the " + " ".join(words)


def avoid_saying(rng: random.Random, tool: str) -> str:
    """How a caller asks the agent not to use `tool`, in their words, never its name:
    "get_fee_quote" -> "Please don't look up the fee quote; I don't need that.", "quote_stay" ->
    "... the quote for the stay ...", "list_fan_tickets" -> "... my tickets ..."."""
    if tool in _TOOL_SAYINGS:
        return rng.choice(_TOOL_SAYINGS[tool])
    words = tool.split("_")
    if words[0] in _VERBS and words[1:]:
        words = words[1:]
    if words[0] in _VERB_NOUNS and words[1:]:
        thing = f"the {_VERB_NOUNS[words[0]]} {_thing(words[1:])}"
    else:
        thing = _thing(words)
    return rng.choice(_LOOK_UP).format(thing=thing)
