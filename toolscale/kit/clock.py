"""Dates and times of a domain's clock: days shifted from today, a tool's date and time
arguments checked and parsed, hours from the world's `now` to a moment."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from toolscale.core.contract import ToolError
from toolscale.tools.bounds import quoted, text


def shift(day: str, days: int) -> str:
    """'2025-07-14' shifted by `days`: shift('2025-07-14', 3) == '2025-07-17'."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def weekday(day: str) -> str:
    """weekday('2025-07-14') == 'Monday'."""
    return f"{date.fromisoformat(day):%A}"


def moment(day: str, time: str = "00:00") -> datetime:
    """A tool's date (YYYY-MM-DD) and time (HH:MM) arguments as one datetime, or a ToolError
    that says how to write them."""
    day = text(day, "date", max_chars=20).strip()
    time = text(time, "time", max_chars=10).strip()
    try:
        return datetime.fromisoformat(f"{day}T{time}")
    except ValueError:
        raise ToolError(
            f"date {quoted(day)} / time {quoted(time)}: use YYYY-MM-DD and HH:MM"
        ) from None


def hours_until(now: str, day: str, time: str = "00:00") -> float:
    """Hours from `now` (an ISO datetime, the world's clock) to `day` at `time` (negative when
    it has passed): hours_until('2025-07-14T15:00', '2025-07-15', '18:00') == 27.0."""
    return (moment(day, time) - datetime.fromisoformat(now)).total_seconds() / 3600


def days_between(first: str, last: str) -> int:
    """Whole days from one ISO date to another: days_between('2025-07-14', '2025-07-20') == 6."""
    return (date.fromisoformat(last) - date.fromisoformat(first)).days
