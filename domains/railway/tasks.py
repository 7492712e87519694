"""The railway sampler: the run's world, a template drawn by weight, the kit's rules.

Templates live in `templates` (one to four gold actions: lookups, quotes, bookings, a refusal, a
hand-off) and `composite` (multi-step, with conditions). A template that finds nothing to work
on returns None and the next one is tried, so every (seed, index) yields a task.
"""

from __future__ import annotations

from domains.railway import composite, templates
from toolscale.kit import Template

# name -> (template, weight); composite templates weigh more so hard tasks are not rare
TEMPLATES: dict[str, tuple[Template, int]] = {
    "departure_time": (templates.departure_time, 2),
    "refund_quote": (templates.refund_quote, 2),
    "fare_lookup": (templates.fare_lookup, 2),
    "add_luggage": (templates.add_luggage, 2),
    "cancel_by_email": (templates.cancel_by_email, 3),
    "book_earliest": (templates.book_earliest, 3),
    "change_quote": (templates.change_quote, 2),
    "fare_difference": (templates.fare_difference, 1),
    "membership": (templates.membership, 1),
    "stations_in": (templates.stations_in, 2),
    "refuse_saver_upgrade": (templates.refuse_saver_upgrade, 2),
    "compensation_handoff": (templates.compensation_handoff, 2),
    "upgrade_or_luggage": (composite.upgrade_or_luggage, 3),
    "cancel_or_change": (composite.cancel_or_change, 3),
    "cancel_upcoming": (composite.cancel_upcoming, 3),
    "cancel_which_trip": (composite.cancel_which_trip, 2),
    "change_and_luggage": (composite.change_and_luggage, 4),
    "rebook_cancelled": (composite.rebook_cancelled, 4),
}
