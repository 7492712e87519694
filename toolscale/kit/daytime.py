"""Which of a caller's phrases fit the time of day of the task's clock.

A greeting or a situation that names a part of the day ("Good morning.", "I'm sorting out my
paperwork this morning.") is said only when the world's clock (`now`, an ISO datetime) is in that
part of the day; a world without a clock (only `today`) gets no such phrase, since nothing tells
the caller what time it is. Any other phrase fits any time.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

# A part of the day: the hours [start, end) it covers.
PARTS = {"morning": (5, 12), "lunch": (11, 14), "afternoon": (12, 18), "evening": (17, 24)}
# How a greeting or a situation names the time it is said at (a motive's "that morning", about
# another day, is no such phrase).
_NAMES = {
    r"\bgood morning\b|(^|[.!?] )morning!|\bthis morning\b": "morning",
    r"\blunch break\b": "lunch",
    r"\bgood afternoon\b|\bthis afternoon\b": "afternoon",
    r"\bgood evening\b|\bthis evening\b|\btonight\b|\btoo late to call\b": "evening",
}


def hour_of(world: dict[str, Any]) -> int | None:
    """The hour of the world's clock, or None for a world with no `now`."""
    now = world.get("now")
    if not isinstance(now, str):
        return None
    try:
        return datetime.fromisoformat(now).hour
    except ValueError:
        return None


def parts_named(text: str) -> set[str]:
    """The parts of the day `text` names: "Good evening. I'm free this morning." -> {"evening",
    "morning"}."""
    low = text.casefold()
    return {part for pattern, part in _NAMES.items() if re.search(pattern, low)}


def fits(text: str, hour: int | None) -> bool:
    """Whether a phrase may be said at `hour` (None: no clock, so only an untimed phrase)."""
    parts = parts_named(text)
    if not parts:
        return True
    if hour is None:
        return False
    return all(PARTS[p][0] <= hour < PARTS[p][1] for p in parts)
