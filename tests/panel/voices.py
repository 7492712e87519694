"""How each panel agent words its turns: asking for details, confirming a write, listing options,
and its final message (from the gold one, `toolscale.sample.tasks.SampledTask.final_message`).

Every voice says the same things (it asks for what the gold route needs, confirms each write
when the policy says so, states the gold outcome); only the wording differs, as it does between
capable agents: with or without question marks, all at once or in turn, "Shall I go ahead
(yes/no)?" or "Please confirm", amounts and dates formatted otherwise, the caller's ids left out,
terse or chatty, a JSON answer's bare value."""

from __future__ import annotations

import json
from dataclasses import dataclass

from tests.panel import rewrite
from tests.panel.compat import as_json_answer
from toolscale.core.contract import Action, committed_answer
from toolscale.sample.tasks import SampledTask

STYLES = (
    "plain",
    "no_question_marks",
    "lacking_first",
    "all_at_once",
    "options",
    "yes_no",
    "please_confirm",
    "formats",
    "ids_left_out",
    "json_bare",
    "terse",
    "chatty",
)


def listed(keys: list[str]) -> str:
    """ "email", "email and card number", "email, phone and card number"."""
    return keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} and {keys[-1]}"


def described(action: Action) -> str:
    """A write in words: "drop class (enrolment id E61313)"."""
    values = [f"{k.replace('_', ' ')} {v}" for k, v in action.arguments.items() if v != ""]
    what = action.name.replace("_", " ")
    return f"{what} ({', '.join(values)})" if values else what


@dataclass(frozen=True)
class Voice:
    """One agent's wording; `style` is one of STYLES (a negative agent speaks plainly)."""

    style: str

    def ask(self, keys: list[str], tries: int) -> str:
        """Ask for the details `keys`; `tries` earlier asks for them went unanswered (each
        later ask says why the details are needed, and is worded anew)."""
        what = listed(keys)
        why = "so I can find your record" if tries % 2 == 0 else "to look up your account"
        if self.style == "no_question_marks":
            return (
                f"Please give me your {what} {why}."
                if tries == 0
                else (f"I still need your {what} {why}. Please send it when you can.")
            )
        if self.style == "terse":
            return f"Your {what}?" if tries == 0 else f"I need your {what} {why}. Your {what}?"
        if self.style == "chatty":
            return (
                "Thanks so much for reaching out, I'd be glad to help with that! To get "
                f"started, could you please share your {what}? That way I can pull up your "
                "details and take care of everything for you."
                if tries == 0
                else f"No worries at all! I just need your {what} {why}. Could you share it "
                "when you have a moment?"
            )
        if tries == 0:
            return f"Could you tell me your {what}?"
        return f"I still need your {what} {why}. Could you give me that?"

    def read_back(self, key: str, value: str) -> str:
        if self.style == "no_question_marks":
            return f"I have your {key} as {value}. Please check that it is right."
        return f"Just to check: your {key} is {value}. Is that right?"

    def confirm(self, action: Action, tries: int) -> str:
        what = described(action)
        again = "Sorry, I need a clear answer before I change anything. " if tries else ""
        if self.style == "no_question_marks":
            return f"{again}I can {what} for you now. Please reply yes if you want me to go ahead."
        if self.style in ("yes_no", "lacking_first", "all_at_once"):
            return f"{again}I'm ready to {what}. Shall I go ahead (yes/no)?"
        if self.style == "please_confirm":
            return f"{again}I will {what}. Please confirm."
        if self.style == "options":
            return f"{again}Would you like me to {what}, or leave things as they are?"
        if self.style == "terse":
            return f"{again}OK to {what}?"
        if self.style == "chatty":
            return (
                f"{again}Great news, I've found everything I need! Just so we're on the same "
                f"page, I'm going to {what}. Would you like me to go ahead with that?"
            )
        return f"{again}Here's what I'll do: {what}. Do you want me to go ahead?"

    def which(self, options: list[str]) -> str:
        lines = "\n".join(f"- {o}" for o in options)
        return f"I found these on your record:\n{lines}\nWhich one do you mean?"

    def final(self, item: SampledTask, form: int) -> str:
        """The final message: the gold one in this voice, as JSON when the task asks for it."""
        task, text = item.task, item.final_message
        if self.style == "formats":
            text = rewrite.money_and_dates(text, form)
        elif self.style == "ids_left_out":
            text = rewrite.ids_left_out(task, text)
        elif self.style == "terse":
            text = rewrite.terse(text)
        elif self.style == "chatty":
            text = rewrite.chatty(text)
        if task.preference.answer_format != "json_confidence":
            return text
        answer = committed_answer(text)
        if self.style == "json_bare" and answer is not None:
            return json.dumps({"answer": answer, "confidence": 0.95})
        return as_json_answer(text, 1.0)


def closing(style: str) -> str:
    """What an agent says when the caller answers its final message."""
    return "You're welcome. Goodbye!" if style != "terse" else "Bye."
