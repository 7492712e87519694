"""Split a message into sentences as a reader does: not after "e.g.", "i.e." or a title.

An agent writes "Which day will she be off (e.g. 2025-10-09)?" and "with Dr. David Le or Dr.
Susan Hahn?": a split at every full stop cuts such a question into pieces, so the example
date stands in a "sentence" of its own (read as a date the agent states) and the doctors'
names lose the question that offers them. `SENTENCE` splits after ".", "?" or "!" followed by
space, and at line breaks, except after the abbreviations people write mid-sentence. Nothing
here knows a domain; the user, the judge and the kit all split with it.
"""

from __future__ import annotations

import re

# Written mid-sentence with a full stop: "e.g." and "i.e." before more of the sentence, and the
# titles before a name ("etc." often ends one, so it ends one here).
_ABBREVIATIONS = ("e.g.", "i.e.", "dr.", "mr.", "ms.", "mrs.", "st.", "prof.")
_NOT_AFTER = "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS)
SENTENCE = re.compile(rf"(?<=[.?!]){_NOT_AFTER}\s+|\n+", re.IGNORECASE)
"""Where one sentence ends and the next begins (the spaces or line breaks between them)."""
END = re.compile(rf"[.!?]{_NOT_AFTER}(?=\s|$)|\n", re.IGNORECASE)
"""A sentence's end: its full stop, question or exclamation mark (before a space or the end of
the text), or a line break."""


def sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, empty ones left out: "Which day (e.g. 9 May)? Thanks."
    is ["Which day (e.g. 9 May)?", "Thanks."]."""
    return [s.strip() for s in SENTENCE.split(text) if s.strip()]
