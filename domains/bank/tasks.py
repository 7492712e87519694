"""The bank's task templates, by name with their sampling weights.

Each template (in `tasks_read`, `tasks_write`, `tasks_multi`, `tasks_policy`) picks a customer of
the run's world, plays the gold path with the kit's `GoldRunner` and describes the caller with a
`Request`; `toolscale.kit.sample_task` draws one and turns it into a task. A template
returns None when the world holds nothing it can work on, or when one of its required facts
happens to be said in the request (an amount equal to a fee), so the kit draws again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from domains.bank import tasks_multi, tasks_policy, tasks_read, tasks_write
from domains.bank.gold import State
from toolscale.core.contract import fact_stated
from toolscale.kit import Draft, Template

# What a caller may be asked for but does not have at hand, unless the template gave it.
UNKNOWN = {
    "customer id": "your customer id",
    "account number": "your account numbers",
    "card number": "your card number",
}


def _guarded(template: Callable[[random.Random, State], Draft | None]) -> Template:
    """`template`, returning None when a required fact is said in the request, and stating
    what the caller does not know."""

    def draw(rng: random.Random, world: State) -> Draft | None:
        draft = template(rng, world)
        if draft is None:
            return None
        request = draft.request
        said = " ".join([*request.goals, *request.conditions])
        if any(fact_stated(f, said) for f in draft.facts):
            return None
        missing = [words for key, words in UNKNOWN.items() if key not in request.known]
        listed = " or ".join([", ".join(missing[:-1]), missing[-1]] if missing[:-1] else missing)
        unknown = f"You do not know {listed}." if missing else ""
        unknown = " ".join(filter(None, [unknown, request.unknown]))
        return replace(draft, request=replace(request, unknown=unknown))

    draw.__name__ = template.__name__
    draw.__doc__ = template.__doc__
    return draw


_WEIGHTS: dict[Callable[[random.Random, State], Draft | None], int] = {
    tasks_read.account_balance: 3,
    tasks_read.last_deposit: 3,
    tasks_read.fee_quote: 3,
    tasks_read.statement_line: 2,
    tasks_read.card_status: 2,
    tasks_read.payee_details: 2,
    tasks_read.spending_total: 2,
    tasks_read.combined_balance: 2,
    tasks_read.left_after_payment: 2,
    tasks_read.which_balance: 2,
    tasks_write.block_card: 3,
    tasks_write.card_limit_change: 3,
    tasks_write.internal_transfer: 3,
    tasks_write.dispute_charge: 3,
    tasks_write.replace_lost_card: 3,
    tasks_write.pay_payee: 3,
    tasks_write.close_savings: 2,
    tasks_multi.dispute_or_block: 3,
    tasks_multi.stolen_card_sweep: 3,
    tasks_multi.limit_and_topup: 2,
    tasks_multi.pay_with_topup: 3,
    tasks_multi.tidy_up: 2,
    tasks_policy.refuse_old_dispute: 2,
    tasks_policy.refuse_limit: 2,
    tasks_policy.refuse_external_limit: 2,
    tasks_policy.handoff_frozen: 2,
}
TEMPLATES: dict[str, tuple[Template, int]] = {
    t.__name__: (_guarded(t), w) for t, w in _WEIGHTS.items()
}
