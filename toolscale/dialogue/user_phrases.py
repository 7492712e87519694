"""The scripted user's words: pools of replies by kind and manner, one drawn per reply.

A manner is the persona's name (`UserScenario.manner`: terse, polite, chatty, hurried, unsure);
each kind of reply (giving a detail, agreeing, declining and saying why, correcting a detail,
asking back, saying they do not know, picking a listed option, accepting a refusal) has a few
wordings per manner, so two users rarely answer alike. Placeholders: {key} / {Key} (what the
agent asked for, e.g. "booking id"), {value}, {right} / {wrong} (a corrected detail), {wants}
(what the user asked for, in their words: "cancel my trip", "know what time my train leaves"),
{other} (a detail they do have), {choice} (an option the agent listed, in its words). What a
caller says on their own (the opening, a change of mind) is worded when the task is sampled
(`toolscale.kit.phrasing`). No wording names a tool: a user talks about what they want, never
about how the agent gets it.
"""

from __future__ import annotations

import random

MANNERS = ("terse", "polite", "chatty", "hurried", "unsure")
Pool = dict[str, tuple[str, ...]]

GIVE: Pool = {  # one detail
    "terse": ("{Key}: {value}.", "It's {value}.", "{value}.", "My {key} is {value}."),
    "polite": (
        "Of course. My {key} is {value}.",
        "Certainly, my {key} is {value}.",
        "My {key} is {value}, thank you.",
        "Sure, it is {value}.",
        "Yes, of course: {value}.",
    ),
    "chatty": (
        "Sure thing! My {key} is {value}.",
        "Oh yes, it's {value}.",
        "Got it right here: {value}.",
        "Yep, my {key} is {value}.",
        "Let me just grab that... it's {value}.",
    ),
    "hurried": ("{value}.", "It's {value}.", "{Key} {value}.", "Here: {value}."),
    "unsure": (
        "I think my {key} is {value}.",
        "Let me see... it should be {value}.",
        "Um, it's {value}, I believe.",
        "My {key}? It's {value}.",
    ),
}
DETAIL = ("My {key} is {value}.", "The {key} is {value}.", "{Key}: {value}.")  # one of several
LEAD: Pool = {  # before several details
    "terse": ("", "Sure."),
    "polite": ("Of course.", "Certainly.", "Yes, here you are."),
    "chatty": ("Sure thing!", "No problem!", "Right, here goes."),
    "hurried": ("", "Here."),
    "unsure": ("Okay, let me see.", "I think I have them here."),
}
YES: Pool = {  # agreeing to a change they asked for
    "terse": ("Yes.", "Yes, go ahead.", "Go ahead.", "Yes, do it."),
    "polite": (
        "Yes, please go ahead.",
        "Yes, please. Thank you.",
        "That's right, please proceed.",
        "Yes, that would be great, thank you.",
    ),
    "chatty": (
        "Yes please, go for it!",
        "Perfect, yes, do that.",
        "Sounds good, go ahead!",
        "Yes! That's exactly it.",
    ),
    "hurried": ("Yes, quickly please.", "Yes. Do it.", "Go ahead, yes.", "Yep, go."),
    "unsure": (
        "Yes, I think so. Yes, please go ahead.",
        "Okay, yes, if that's right.",
        "I suppose so, yes. Go ahead.",
        "Yes, that sounds right.",
    ),
}
RIGHT: Pool = {  # a detail read back correctly
    "terse": ("Yes.", "Correct.", "That's it."),
    "polite": ("Yes, that's right.", "That's correct, thank you.", "Yes, exactly."),
    "chatty": ("Yep, that's the one!", "Spot on.", "That's right!"),
    "hurried": ("Yes.", "Right.", "Correct, yes."),
    "unsure": ("Yes, I think that's right.", "That looks right to me.", "Yes, that's it."),
}
NO: Pool = {  # declining any change: they only wanted to know something
    "terse": ("No. I only wanted to {wants}.", "No changes. I just want to {wants}."),
    "polite": (
        "No, please don't change anything. I only wanted to {wants}.",
        "No, thank you. I was only calling to {wants}.",
        "Please don't do that; I just wanted to {wants}.",
    ),
    "chatty": (
        "Oh no, don't do that! I only wanted to {wants}.",
        "No no, leave it as it is. I just wanted to {wants}.",
    ),
    "hurried": ("No. I only need to {wants}.", "No, don't. I just need to {wants}."),
    "unsure": (
        "Oh, no, I don't think I want that. I only wanted to {wants}.",
        "No, please leave it. I was only trying to {wants}.",
    ),
}
NO_PLAIN: Pool = {  # declining a change, nothing more to say
    "terse": ("No.", "No, leave it."),
    "polite": ("No, please don't change anything.", "No, thank you, please leave it as it is."),
    "chatty": ("Oh no, please don't change anything!",),
    "hurried": ("No. Don't change anything.",),
    "unsure": ("No, I'd rather you didn't change anything.",),
}
DECLINE: Pool = {  # declining an offered change they did not ask for, saying why
    "terse": ("No. I only want to {wants}.", "No thanks. I just want to {wants}."),
    "polite": (
        "No, thank you. I only called to {wants}.",
        "That won't be necessary, thank you; I only wanted to {wants}.",
        "No, please don't. All I need is to {wants}.",
    ),
    "chatty": (
        "Ha, no thanks! I really just wanted to {wants}.",
        "Oh, no need for that. I only rang to {wants}.",
    ),
    "hurried": ("No. I only need to {wants}.", "No time for that. I just want to {wants}."),
    "unsure": (
        "Hmm, no, I don't think so. I only wanted to {wants}.",
        "No, I'd rather not. I just wanted to {wants}.",
    ),
}
CHANGED: Pool = {  # declining the request they dropped, saying what they want now
    "terse": ("No. I changed my mind: I want to {wants} instead.",),
    "polite": (
        "No, sorry, I don't want that any more. I'd like to {wants} instead.",
        "Please don't; as I said, I'd rather {wants} now.",
    ),
    "chatty": ("No, forget that bit! I'd like to {wants} instead, remember?",),
    "hurried": ("No. I said I'd rather {wants}.",),
    "unsure": ("Oh, no, sorry, I changed my mind about that. I'd like to {wants} instead.",),
}
CORRECT: Pool = {  # correcting a detail they gave wrong
    "terse": ("No, that's wrong. It's {right}, not {wrong}.", "Correction: {right}."),
    "polite": (
        "I'm so sorry, I misread it. My {key} is {right}, not {wrong}.",
        "Apologies, that was a typo on my part: it should be {right}.",
    ),
    "chatty": (
        "Oops, my mistake! I read it wrong. It's {right}, not {wrong}.",
        "Oh wait, silly me, it's actually {right}.",
    ),
    "hurried": ("No, {right}. I misread it.", "Wrong one, sorry. {right}."),
    "unsure": (
        "Oh dear, I think I read that wrong. It's {right}, not {wrong}, sorry.",
        "Hmm, wait, let me look again... no, it's {right}. Sorry about that.",
    ),
}
ASK_BACK: Pool = {  # asking back before giving a detail
    "terse": ("Why do you need my {key}?", "What for?"),
    "polite": (
        "May I ask why you need my {key}?",
        "Could you tell me what you need my {key} for, please?",
    ),
    "chatty": ("Sure, but what do you need my {key} for?", "Where would I find my {key}?"),
    "hurried": ("Why do you need that?", "Is that really needed?"),
    "unsure": (
        "Is it safe to give you my {key}? What will you use it for?",
        "Where would I find my {key}? And what is it for?",
    ),
}
ASK_AGAIN: Pool = {  # the agent did not say why
    "terse": ("You didn't say why.",),
    "polite": ("I'd still like to know why you need it first, please.",),
    "chatty": ("Hang on, you didn't tell me what it's for!",),
    "hurried": ("Why, though?",),
    "unsure": ("Sorry, I still don't understand what you need it for.",),
}
HOLD: Pool = {  # giving one detail, holding the next back
    "terse": ("Wait for the {key}.", "The {key} in a second."),
    "polite": (
        "Just a moment while I find my {key}.",
        "I'll need a moment to look up my {key}.",
    ),
    "chatty": ("Hold on, I'm digging out my {key} now.", "Give me a sec for the {key}!"),
    "hurried": ("Hang on for the {key}.", "{Key} coming."),
    "unsure": ("Let me find my {key}, one moment.", "I need to look for my {key}, sorry."),
}
LATE = ("And my {key} is {value}.", "Found it: my {key} is {value}.", "Here's the {key}: {value}.")
DONT_KNOW: Pool = {  # a question about something they do not know
    "terse": ("Don't know.", "No idea."),
    "polite": ("Sorry, I don't have that information.", "I'm afraid I don't know that."),
    "chatty": ("Oh, I really couldn't tell you, sorry!", "No idea, I'm afraid!"),
    "hurried": ("No idea.", "Don't know."),
    "unsure": ("I'm not sure, sorry.", "I don't think I know that, sorry."),
}
LACK: Pool = {  # asked for a detail they do not have
    "terse": ("I don't have the {key}.", "No {key}, sorry."),
    "polite": ("I'm sorry, I don't know my {key}.", "I'm afraid I don't have the {key} to hand."),
    "chatty": ("Oh, I've no idea what my {key} is, sorry!",),
    "hurried": ("Don't have the {key}.",),
    "unsure": ("Hmm, I don't think I have a {key}. Sorry.",),
}
OFFER_OTHER = (  # after LACK, when they do have something else
    "I do have my {other}, if that helps.",
    "I can give you my {other} instead.",
    "I know my {other}, though.",
)

PICK: Pool = {  # picking one of the options the agent listed, in the agent's words
    "terse": ("{Choice}.", "{Choice}, please."),
    "polite": ("{Choice}, please.", "It's {choice}, thank you."),
    "chatty": ("Oh, {choice}, please!", "That'd be {choice}."),
    "hurried": ("{Choice}.", "{Choice}, please."),
    "unsure": ("I think it's {choice}.", "{Choice}, I believe."),
}
ONLY: Pool = {  # a proposal on several records: only the one they mean
    "terse": ("No, only {choice}.",),
    "polite": ("Not all of them, please: only {choice}.",),
    "chatty": ("Oh no, not all of them! Just {choice}, please.",),
    "hurried": ("Only {choice}.",),
    "unsure": ("Hmm, not all of them, I think. Only {choice}, please.",),
}
ONLY_ASKED: Pool = {  # ... when no listed option is the one: what they asked for
    "terse": ("No, only what I asked: {wants}.",),
    "polite": ("Not all of them, please. I only wanted to {wants}.",),
    "chatty": ("Oh no, not all of them! I just wanted to {wants}.",),
    "hurried": ("No. Only what I asked: {wants}.",),
    "unsure": ("Hmm, not all of them. I only wanted to {wants}.",),
}
ONLY_ONE: Pool = {  # asked for another value than the one they gave
    "terse": ("That's the only {key} I have.",),
    "polite": ("I'm sorry, that's the only {key} I have.",),
    "chatty": ("Sorry, that's the only {key} I've got!",),
    "hurried": ("That's the only one.",),
    "unsure": ("I don't think I have another {key}, sorry.",),
}
ACCEPT: Pool = {  # accepting a refusal: nothing more to ask
    "terse": ("Understood. Leave it then.", "Okay, never mind then."),
    "polite": ("I understand. Please leave it as it is, then. Thank you.",),
    "chatty": ("Ah, that's a shame! Never mind, thanks anyway.",),
    "hurried": ("Fine, leave it.",),
    "unsure": ("Oh, I see. I suppose we'll leave it, then. Thanks.",),
}
LACK_OFFER: Pool = {  # asked for an identifier they do not have: another they do have
    "terse": ("Don't have that. My {key} is {value}.",),
    "polite": ("I'm afraid I don't have that, but my {key} is {value}.",),
    "chatty": ("Oh, I don't have that one! But my {key} is {value}, if that helps.",),
    "hurried": ("Don't have it. {Key}: {value}.",),
    "unsure": ("Hmm, I don't think I have that. My {key} is {value}, though.",),
}
DESCRIBE: Pool = {  # options listed that none of their details tells apart: what they want
    "terse": ("Not sure which. I want to {wants}.",),
    "polite": ("I'm not sure which of those it is, sorry. I'd like to {wants}.",),
    "chatty": ("Oh, I couldn't tell you which one that is! I just want to {wants}.",),
    "hurried": ("Don't know which. I need to {wants}.",),
    "unsure": ("Hmm, I'm not sure which one. I think I want to {wants}.",),
}
RESTATE: Pool = {  # a request that names nothing they can tell: their request again, and an id
    "terse": ("I want to {wants}. My {key} is {value}.",),
    "polite": ("Sorry, I'm not sure what you need. I'd like to {wants}; my {key} is {value}.",),
    "chatty": ("Oh, I'm a bit lost! I just want to {wants}. My {key} is {value}, if that helps.",),
    "hurried": ("I need to {wants}. {Key}: {value}.",),
    "unsure": ("Sorry, I'm not sure what you mean. I want to {wants}. My {key} is {value}.",),
}
RESTATE_PLAIN: Pool = {  # ... with no identifier to give
    "terse": ("I just want to {wants}.",),
    "polite": ("Sorry, I'm not sure what you need. I'd like to {wants}.",),
    "chatty": ("Oh, I'm a bit lost! I just want to {wants}.",),
    "hurried": ("I need to {wants}.",),
    "unsure": ("Sorry, I'm not sure what you mean. I want to {wants}.",),
}
ONLY_HAVE: Pool = {  # asked for identifiers they lack, having given the one they have
    "terse": ("Don't have that. Only my {key}: {value}.",),
    "polite": ("I'm sorry, I don't have that. All I have is my {key}, {value}.",),
    "chatty": ("Oh, I really don't have that one! All I've got is my {key}, {value}.",),
    "hurried": ("Don't have it. Just my {key}, {value}.",),
    "unsure": ("Hmm, I don't think I have that. I only have my {key}, {value}.",),
}
NO_THANKS: Pool = {  # an offer of something they did not call for
    "terse": ("No, thanks. That's all.",),
    "polite": ("No, thank you, that's all I needed.",),
    "chatty": ("Oh, no need, thanks! That's everything.",),
    "hurried": ("No. That's all.",),
    "unsure": ("Hmm, no, I don't think so. That's all, thanks.",),
}
AGAIN = (  # a non-answer said just before, said otherwise
    "As I said, I'm afraid I can't help with that.",
    "Sorry, I really don't have anything more on that.",
)


def fill(text: str, **values: str) -> str:
    """`text` filled with `values`; {Key} and {Goal} are {key} and {goal} with a capital."""
    filled = {**values, **{k.capitalize(): v[:1].upper() + v[1:] for k, v in values.items()}}
    return text.format(**filled)


def pick(rng: random.Random, pool: Pool | tuple[str, ...], manner: str, **values: str) -> str:
    """One wording of `pool` (by `manner` when it is by manner), filled with `values` (`fill`)."""
    options = pool if isinstance(pool, tuple) else pool[manner]
    return fill(rng.choice(options), **values)
