"""The user of a conversational task: why they call, what they say and know, how they behave.

`UserScenario` is part of the domain contract (re-exported by `toolscale.core.contract`); it is
its own module because the behaviours of the scripted user (`toolscale.dialogue.scripted_user`)
made it the contract's largest part.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

# How a scripted user departs from answering plainly ("" when they do not), drawn per task:
# declines an offered change they did not ask for and says why; gives a detail wrong and corrects
# it; gives two details asked together one at a time; asks why a detail is needed before giving
# it; changes the request after the agent's first reply; says they do not have a detail asked.
Behaviour = Literal["", "decline", "correct", "pieces", "ask_back", "change", "dont_know"]
BEHAVIOURS: tuple[Behaviour, ...] = (
    "decline",
    "correct",
    "pieces",
    "ask_back",
    "change",
    "dont_know",
)


class UserScenario(BaseModel):
    """The user of a conversational task (tau2-bench's `user_scenario.instructions`): why they
    call, what they say first, what they can tell when asked and what they cannot.

    `opening` is the first user message: what a caller says first, without the ids and details
    of `known`, which the user gives only when the agent asks for them (`known` maps what the
    agent asks for, "booking id", to the value); `stated` holds the details the opening already
    gives (the user repeats them when asked). `known_info` is both, as tau2's text. The
    agent must confirm each write with the user first when `confirm_writes` (the policy says
    so); a user who only wants information declines any change (`accepts_changes` False).
    `nl_assertions` are statements about a correct conversation, as in tau2.

    How the scripted user behaves (toolscale.dialogue.scripted_user; all empty for a plain user):
    `behaviour` is one of BEHAVIOURS; `manner` the persona's name, which colours its words;
    `wants` what the user asked for in their own words, which they give as the reason when they
    decline; `declines` the words of proposals they turn down (a change they did not ask for);
    `unwanted` a change the reference agent offers in a `decline` conversation (an action as
    {"name", "arguments"}); `wrong` the value of a detail the user first gives by mistake
    (`correct`), by key; `lacks` details the agent may ask for that the user does not have
    (`dont_know`); `first_request` what the opening asked before the user changed their mind
    and `change` what they then say (`change`).
    """

    model_config = ConfigDict(frozen=True)

    reason_for_call: str
    opening: str
    known: dict[str, str] = {}
    stated: dict[str, str] = {}
    unknown_info: str = ""
    task_instructions: str = ""
    nl_assertions: list[str] = []
    persona: str = ""
    confirm_writes: bool = True
    accepts_changes: bool = True
    behaviour: Behaviour = ""
    manner: str = ""
    wants: str = ""
    declines: list[str] = []
    unwanted: dict[str, Any] = {}
    wrong: dict[str, str] = {}
    lacks: list[str] = []
    first_request: str = ""
    change: str = ""

    @property
    def known_info(self) -> str:
        """tau2's text of what the user knows: "Your {key} is {value}." for each `known` detail
        (its key is how the agent asks for it), then the `stated` values as what the request
        already says (their keys are the wording's slots, such as "other" or "name", which read
        as a wrong sentence: "Your name is Ms Lindqvist" for the person to be added)."""
        said = " ".join(f"Your {key} is {value}." for key, value in self.known.items())
        if self.stated:
            values = "; ".join(dict.fromkeys(self.stated.values()))
            said += f" Your request already gives these details (repeat them if asked): {values}."
        return said.strip()
