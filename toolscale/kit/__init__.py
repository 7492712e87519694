"""The domain kit: what every stateful (tau2-style) domain needs, written once.

A stateful domain draws one world per run seed (`Domain.world`), and its task templates pick
records from that world, play their gold path with `GoldRunner` (the real tools on a scratch
copy, so every fact reported is a real tool output), and describe the caller with a `Request`:
what they want, why, and what they can tell when asked. `sample_task` turns a template's
`Draft` into a `TaskSpec` with a `UserScenario` (opening worded by `phrasing`) and enforces the
rules every domain needs: nothing the user must be asked for appears in the opening, a request
that implies a write has a gold path that changes the state, a read-only one states a fact only
a look-up gives (`evidence`, which a `KitDomain`'s verifier also requires of every attempt),
difficulty follows the gold path.
Start a new stateful domain by copying `domains/railway/` (README, "Adding a domain").
"""

from toolscale.kit.declare import Draw, Entity, Goal, PolicyError, finds, lists, raises
from toolscale.kit.domain import KitDomain
from toolscale.kit.draft import Draft, Request
from toolscale.kit.evidence import STOCK_PHRASES, parrot
from toolscale.kit.gold import GoldRunner
from toolscale.kit.lookups import find_by, lookup
from toolscale.kit.sampling import KitError, Template, difficulty, sample_task
from toolscale.kit.stateful import StatefulDomain

__all__ = [
    "STOCK_PHRASES",
    "Draft",
    "Draw",
    "Entity",
    "Goal",
    "GoldRunner",
    "KitDomain",
    "KitError",
    "PolicyError",
    "Request",
    "StatefulDomain",
    "Template",
    "difficulty",
    "find_by",
    "finds",
    "lists",
    "lookup",
    "parrot",
    "raises",
    "sample_task",
]
