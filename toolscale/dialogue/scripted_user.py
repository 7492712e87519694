"""The scripted user: a deterministic user who answers the agent from the task's scenario only.

It plays a conversational task (one with a `UserScenario`) without any LLM. A plain user gives
what the agent asks for (`scenario.known`: "booking id" -> "BK1234", or a detail its opening
gave, `scenario.stated`), agrees to a proposed change (or declines it and says why, when they
only wanted to know something), says when they do not know, and ends the conversation when the
agent asks nothing. Only questions and requests are answered: a statement that merely mentions a
key ("The booking id is 5137.") asks for nothing, and "go ahead" is a proposal only in a
question ("Shall I go ahead?"), not in "Please go ahead and ask".

A user with a behaviour (`scenario.behaviour`, drawn per task by the kit) departs from that as
people do: `decline` turns down the change it did not ask for (`scenario.declines`) and says
what it wanted; `correct` first gives a detail wrong (`scenario.wrong`) and corrects it as soon
as the agent reads it back, uses it in a proposal or asks again; `pieces` gives only the first
of several details asked together and the rest at the agent's next message; `ask_back` asks why
a detail is needed and gives it once the agent says why; `change` answers the agent's first
reply with a new request (`scenario.change`) and turns down the old one; `dont_know` says it
does not have a detail (`scenario.lacks`) and what it has instead. Its words come from pools by
manner (`toolscale.dialogue.user_phrases`), drawn from an RNG seeded by the scenario, so a
conversation replays word for word. An agent that says the same thing `CIRCLE` times in a row is
going in circles: the user hangs up (`in_circles`; tau2's user stops the same way).

Agents that are not the reference teacher are followed too (what a turn lists, offers or
refuses is read by `toolscale.dialogue.user_reading`): every turn that asks something, with or
without a question mark, gets an answer; of the options an agent lists ("Lisa (Year 9) and
Brandy (Year 10). Which one?") the user picks the one a detail of theirs names (a name, an id,
a date or an amount in any common wording, else the words of their request), and when none
does, says once that they can't tell which and what they want (the agent can match it); asked
for an
identifier they lack, they say so and give one they have not given yet; an either-or offer
("... or leave things as they are?") is a proposal; a proposal on several records ("cancel all
three alerts?") from a user who asked about one gets "only that one"; after a refusal they
decline any other change and accept it rather than give their details again (then end); and no
non-answer is said twice in a row.

`ScriptedUser` answers one conversation message by message; `reply` answers the latest of a
list of the agent's messages by replaying them (for callers that keep only the messages). The
reference teacher plays gold conversations against it, and LLM teachers use it when no user
endpoint is configured, so every conversational trace can be replayed turn for turn.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from toolscale.core.answers import answer_field
from toolscale.core.contract import UserScenario
from toolscale.core.sentences import SENTENCE as _SENTENCE
from toolscale.dialogue import user_choice as choice
from toolscale.dialogue import user_phrases as say
from toolscale.dialogue import user_reading as read
from toolscale.dialogue.user_asked import asking as _asking
from toolscale.dialogue.user_asked import asks_for, mentions, proposes

# Why a detail is needed ("I need it to find your booking", "so I can look you up").
_BECAUSE = re.compile(
    r"\b(because|so (?:that )?(?:i|we) can|in order to|(?:need|use)s? (?:it|this|that|them) "
    r"(?:to|for)|to (?:find|look up|locate|identify|verify|check|pull up|make sure))\b",
    re.IGNORECASE,
)
_RIGHT = re.compile(r"\b(?:right|correct|ok|okay)\s*\?|\bconfirm\b|\bis that (?:it|so)\b", re.I)
_DONE = re.compile(r"\banything else\b", re.IGNORECASE)  # "Is there anything else?": no
# The same agent message this many times in a row ends the conversation (it goes in circles).
CIRCLE = 3


class ScriptedUser:
    """One conversation's user. `kind` names what the last reply did ("give", "yes", "no",
    "decline", "correct", "right", "ask_back", "hold", "lack", "dont_know", "change", or ""
    when the user said nothing): the reference agent reads it to go on."""

    def __init__(self, scenario: UserScenario) -> None:
        self.scenario = scenario
        self.rng = random.Random(f"user:{scenario.opening}\n{scenario.reason_for_call}")
        self.manner = scenario.manner if scenario.manner in say.MANNERS else "polite"
        self.details = {**scenario.stated, **scenario.known}
        self.turns = 0
        self.given: set[str] = set()  # keys given with their right value
        self.misled: set[str] = set()  # keys given with the wrong value, not yet corrected
        self.held: list[str] = []  # keys held back (pieces)
        self.asked_why = False
        self.kind = ""
        self.refused = False  # the agent said it cannot do what was asked
        self.accepted = False  # ... and the user accepted that
        self.changed = False  # the user changed their request (`scenario.change`)
        self.described = False  # options none of their details picks: what they want, said
        self.last = ""  # the user's last reply: a non-answer is never said twice in a row
        self.last_pick = ""  # the option they last named

    def _pick(self, pool: say.Pool | tuple[str, ...], **values: str) -> str:
        return say.pick(self.rng, pool, self.manner, **values)

    def reply(self, message: str) -> str | None:
        """The user's answer to the agent's latest message, or None: the conversation is over."""
        said = answer_field(message.strip()) or message  # a JSON answer says its "answer"
        answer = self._answer(said.replace("\u2019", "'"))  # "can\u2019t" is "can't"
        self.last = answer or ""
        return answer

    def _answer(self, message: str) -> str | None:
        self.turns += 1
        self.kind = ""
        scenario = self.scenario
        self.refused = self.refused or bool(read.REFUSAL.search(message))
        if scenario.behaviour == "change" and self.turns == 1 and scenario.change:
            self.kind = "change"
            self.changed = True
            return scenario.change
        for key in sorted(self.misled):  # the wrong detail read back, proposed or asked again
            if mentions(message, scenario.wrong[key]):
                return self._correct(key, proposal=bool(read.PROCEED.search(message)))
        questions, requests = _asking(message)
        asked = [key for key in self.details if asks_for(requests, key)]
        # the opening's detail in a which-question is its context ("... to the lower section?")
        fresh = [key for key in asked if key not in scenario.stated]
        picked = None if fresh else self._picked(message, questions)
        if picked:  # "Which one would you like me to add?" after the plans: a plan, not a yes
            return self._chose(picked)
        if any(read.PROCEED.search(q) for q in questions) or (
            read.WILL.search(message) and any(read.CONFIRM.search(q) for q in questions)
        ):
            untold = [k for k in asked if not self._told(k, message)]
            if untold and not self.held:  # "Shall I look it up? Please give me your email."
                return self._give(untold, message)
            if not asked and read.asks_for_id(requests):  # "I can do it: your order number
                return self._unknown(requests)  # or email?" asks for what they lack, no yes
            return self._proposal(message)
        listed = read.options(message) if requests and choice.WHICH.search(requests) else []
        listed = read.candidates(listed)
        if self.held:
            return self._give([*self.held, *(k for k in asked if k not in self.held)], message)
        if asked and self.refused and all(k in self.given for k in asked):
            return self._accept()  # asked again after a refusal: no details re-sent
        chosen = self._chosen(listed) if not asked else None
        if chosen:
            return self._chose(chosen)
        offer = bool(read.OFFER.search(message))  # "..., or leave things as they are?"
        if listed and not asked and not offer and scenario.wants and not self.described:
            self.described = True  # as a person does: "not sure which; I want to ..."
            return self._pick(say.DESCRIBE, wants=self._request())
        if asked and read.asks_yes(message) and all(self._told(k, message) for k in asked):
            return self._proposal(message)  # "OK to exchange item (...)?" asks for a yes
        if asked and not self._read_back(message, questions, asked):
            if read.OTHER.search(requests) and all(k in self.given for k in asked):
                return self._only(asked[0])
            return self._give(asked, message)
        if self._read_back(message, questions, list(self.given)):
            self.kind = "right"
            return self._pick(say.RIGHT)
        lacking = [key for key in scenario.lacks if asks_for(requests, key)]
        if lacking:
            return self._lack(lacking[0])
        if any(read.CONFIRM.search(q) for q in questions) or read.OFFER.search(message):
            if not asked and read.asks_for_id(requests):  # "... and only go ahead once you say
                return self._unknown(requests)  # yes" after a request for what they lack
            return self._proposal(message)
        if read.CONDITIONAL.search(requests) and not _DONE.search(requests):
            offered = " ".join(s for s in _SENTENCE.split(message) if read.CONDITIONAL.search(s))
            if self._own(offered) and scenario.accepts_changes:
                return self._proposal(message)
            self.kind = "no"  # "If you'd like a new card, let me know": not what they called for
            return self._fresh(say.NO_THANKS)
        if (questions or requests) and not all(_DONE.search(q) for q in questions or [requests]):
            return self._unknown(requests)
        return None

    def _request(self) -> str:
        """What the user wants now, in their words (their new request after a change of mind)."""
        return self.scenario.wants

    def _identifiers(self) -> list[str]:
        """The keys of what the user knows, identifiers first ("customer id" before "section")."""
        known = list(self.scenario.known)
        return sorted(known, key=lambda k: not read.IDENTIFIER.search(k))

    def _told(self, key: str, message: str) -> bool:
        """Whether the detail `key` is no news to the agent: given, said in the opening, or in
        `message` itself (a proposal naming it asks for a yes, not for the detail)."""
        value = self.details[key]
        return key in self.given or key in self.scenario.stated or read.holds(message, value)

    def _read_back(self, message: str, questions: list[str], keys: list[str]) -> bool:
        """Whether the message repeats the value of a detail already given and asks whether it
        is right ("So that's BK1234. Did I get that right?"): it asks for a yes, not for the
        detail."""
        given = [self.details[k] for k in keys if k in self.given]
        if not any(mentions(message, v) for v in given):
            return False
        return any(_RIGHT.search(q) or any(mentions(q, v) for v in given) for q in questions)

    def _proposal(self, message: str) -> str:
        scenario = self.scenario
        own = self._own(message) and scenario.behaviour != "change"
        if not own and any(proposes(message, marker) for marker in scenario.declines):
            self.kind = "decline"
            pool = say.CHANGED if scenario.behaviour == "change" else say.DECLINE
            return self._pick(pool, wants=scenario.wants)
        if scenario.accepts_changes and (not self.refused or self._own(message)):
            narrowed = self._narrow(message)
            if narrowed:
                return narrowed
            self.kind = "yes"
            return self._pick(say.YES)
        self.kind = "no"
        if scenario.wants and not self._own(message):  # "No, I only wanted to ..."
            return self._pick(say.NO, wants=scenario.wants)
        return self._pick(say.NO_PLAIN)  # its own change, which it no longer wants: a plain no

    def _own(self, message: str) -> bool:
        """Whether `message` proposes the change the user called for (`user_choice.own`), or
        the option they just picked (after "20:00 is full", "19:30, please": its booking)."""
        picked = self.last_pick and read.holds(message, self.last_pick)
        return choice.own(self._request(), message) or bool(picked)

    def _chose(self, option: str) -> str:
        self.kind, self.last_pick = "pick", option
        return self._pick(say.PICK, choice=option)

    def _fresh(self, pool: say.Pool, **values: str) -> str:
        """A non-answer from `pool`, never the one said last (another wording, else a fallback:
        an agent asking the same again hears something new)."""
        text = self._pick(pool, **values)
        if text != self.last:
            return text
        for other in (*pool[self.manner], *say.AGAIN):
            filled = say.fill(other, **values)
            if filled != self.last:
                return filled
        return text  # unreachable: AGAIN holds two different wordings

    def _chosen(self, listed: list[str]) -> str | None:
        """The option of `listed` the user's details pick out (None: none does); the details
        it holds count as given."""
        values = list(self.details.values())
        request = self.scenario.change if self.changed else self.scenario.opening
        words = " ".join((self.scenario.wants, request, *values))
        index = read.choose(listed, values, words) if listed else None
        if index is None:
            return None
        chosen = listed[index]
        self.given.update(k for k, v in self.details.items() if read.holds(chosen, v))
        return read.label(chosen, values)  # in few words, never the agent's sentence

    def _picked(self, message: str, questions: list[str]) -> str | None:
        """The option a choice question asks the user to name (`user_choice.picked`); the
        details it holds count as given."""
        values = [v for v in self.details.values() if v]
        found = choice.picked(message, questions, values)
        if found is None:
            return None
        option, said = found
        self.given.update(k for k, v in self.details.items() if read.holds(option, v))
        return said

    def _narrow(self, message: str) -> str | None:
        """A proposal on several records ("all three alerts") from a user who asked about one:
        only the one they mean (the option their details pick, else what they asked for). A
        proposal of the several things they did ask for is no such thing."""
        wants = self.scenario.wants
        # what it proposes, not what it describes ("I see two lessons, both on Wednesdays")
        sentences = _SENTENCE.split(message)
        asked = " ".join(s for s in sentences if s.rstrip().endswith("?") or read.PROCEED.search(s))
        if not read.scope(asked) or read.SCOPE.search(wants):
            return None
        if read.each_asked(read.options(message), wants):  # "both": the two things they asked
            return None
        self.kind = "only"
        chosen = self._chosen(read.options(message))
        if chosen:
            return self._pick(say.ONLY, choice=chosen)
        if not wants:  # a scenario that does not say what they want in words (synthesized)
            return None
        return self._pick(say.ONLY_ASKED, wants=wants)

    def _accept(self) -> str | None:
        """After a refusal, asked again for what they gave or for something else: the user
        accepts it and asks for nothing more (once; then they end the conversation)."""
        if self.accepted:
            return None
        self.accepted = True
        self.kind = "accept"
        return self._pick(say.ACCEPT)

    def _only(self, key: str) -> str:
        """Asked for another value than the one they gave: they have no other."""
        if self.refused:
            return self._accept() or ""
        self.kind = "only"
        return self._fresh(say.ONLY_ONE, key=key)

    def _unknown(self, requests: str) -> str | None:
        """Asked something the user cannot answer from their details: asked for an identifier,
        they say they do not have that one and give one they hold and have not given yet (the
        trip id for an email, phone or traveller id); asked in words that name nothing ("Please
        type one of these."), they say again what they want, with an identifier of theirs; after
        a refusal they accept it; else they say they do not know."""
        held = self._identifiers()
        others = [k for k in held if k not in self.given]
        if held and read.IDENTIFIER.search(requests):
            self.kind = "give"
            key = (others or held)[0]
            self.given.add(key)  # not that one: the one they have (again, when it is all they have)
            pool = say.LACK_OFFER if others else say.ONLY_HAVE
            return self._fresh(pool, key=key, value=self.details[key])
        if self.refused:
            return self._accept()
        if read.vague(requests) and self._request():
            held = self._identifiers()
            self.kind = "restate"
            if held:
                self.given.add(held[0])
                values = {"wants": self._request(), "key": held[0], "value": self.details[held[0]]}
                return self._fresh(say.RESTATE, **values)
            return self._fresh(say.RESTATE_PLAIN, wants=self._request())
        self.kind = "dont_know"
        return self._fresh(say.DONT_KNOW)

    def _correct(self, key: str, proposal: bool) -> str:
        self.misled.discard(key)
        self.given.add(key)
        self.kind = "correct"
        values = {"key": key, "right": self.details[key], "wrong": self.scenario.wrong[key]}
        text = self._pick(say.CORRECT, **values)
        return f"No, please don't. {text}" if proposal else text

    def _give(self, keys: list[str], message: str) -> str:
        scenario = self.scenario
        if scenario.behaviour == "ask_back" and not self.given and not self.misled:
            if not self.asked_why and _BECAUSE.search(message):
                self.asked_why = True  # told why before asking back: nothing to ask
            elif not self.asked_why:
                self.asked_why = True
                self.kind = "ask_back"
                return self._pick(say.ASK_BACK, key=keys[0])
            if not _BECAUSE.search(message):
                self.kind = "ask_back"
                return self._fresh(say.ASK_AGAIN)
        late = [k for k in keys if k in self.held]
        self.held = []
        if scenario.behaviour == "pieces" and not self.given and len(keys) >= 2:
            self.held = keys[1:]
            self.given.add(keys[0])
            self.kind = "hold"
            first = self._pick(say.GIVE, key=keys[0], value=self.details[keys[0]])
            return f"{first} {self._pick(say.HOLD, key=keys[1])}"
        parts = []
        for key in keys:
            value, right = self.details[key], key not in scenario.wrong
            if key in self.misled:  # asked again: the right value this time, with an apology
                return self._correct(key, proposal=False)
            if not right and key not in self.given:
                value = scenario.wrong[key]
                self.misled.add(key)
            else:
                self.given.add(key)
            if key in late:
                parts.append(self._pick(say.LATE, key=key, value=value))
            elif len(keys) == 1:
                parts.append(self._pick(say.GIVE, key=key, value=value))
            else:
                parts.append(self._pick(say.DETAIL, key=key, value=value))
        self.kind = "give"
        lead = "" if len(keys) == 1 or late else self._pick(say.LEAD)
        return " ".join(p for p in [lead, *parts] if p)

    def _lack(self, key: str) -> str:
        self.kind = "lack"
        text = self._fresh(say.LACK, key=key)
        others = [k for k in self._identifiers() if k not in self.given]
        if others:
            text = f"{text} {self._pick(say.OFFER_OTHER, other=others[0])}"
        return text


def reply(scenario: UserScenario, said: Sequence[str] | str) -> str | None:
    """The user's answer to the last of the agent's messages `said` (oldest first; one message
    alone is a conversation of one), replaying the earlier ones: the user remembers what they
    gave, corrected and held back."""
    messages = [said] if isinstance(said, str) else list(said)
    user = ScriptedUser(scenario)
    answer = None
    for message in messages:
        answer = user.reply(message)
    return answer


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def in_circles(said: Sequence[str]) -> bool:
    """Whether the agent's messages to the user (oldest first, the latest included) end with the
    same message `CIRCLE` times: the user hangs up rather than answer it again."""
    last = [_plain(s) for s in said[-CIRCLE:]]
    return len(last) == CIRCLE and len(set(last)) == 1


CIRCLES = f"the conversation went in circles: the agent said the same thing {CIRCLE} times"
