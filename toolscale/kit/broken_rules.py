"""Every reason the policy gives to refuse one request, not only the first its check meets.

A refusal task tests one rule: the request it is drawn for must break that rule and nothing
else, or a careful agent that refuses for the other reason would be judged wrong (a saver ticket
that is also cancelled; an exchange of a cancelled booking to a showing that is over).
`reasons` runs a check, or `tool_reasons` a tool on a scratch copy of the state, inside
`collecting()` (toolscale.kit.declare), where each `PolicyError.raise_if` records its rule and
lets the check go on. A plain `ToolError` met after a broken rule (a request the tool refuses
for no declared rule: a train that has left) is kept as `other`, and so is an exception raised
because the check went on past a broken rule; without a broken rule either is raised, as the
check itself would. A rule raised with a bare `raise` ends the check: write rules with
`raise_if`, so that the rules after it are checked too. Nothing here draws or samples;
`toolscale.kit.draws` and check-domain (`toolscale.check.one_reason`) use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolscale.core.contract import ToolError, Toolkit
from toolscale.kit.declare import PolicyError, collecting
from toolscale.sample import worlds


@dataclass(frozen=True)
class Reasons:
    """The rules one request breaks (their errors, in the order checked) and any other reason
    it is refused (`other`: a ToolError's message, or the exception after a broken rule)."""

    errors: tuple[PolicyError, ...]
    other: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        """The names of the broken rules, each once."""
        return tuple(dict.fromkeys(error.rule for error in self.errors))

    def only(self) -> PolicyError | None:
        """The error of the one rule broken when it is the only reason to refuse, else None."""
        return self.errors[0] if len(self.rules) == 1 and not self.other else None

    def described(self) -> str:
        return in_words(self.rules, self.other)


def in_words(rules: tuple[str, ...], other: str = "") -> str:
    """Reasons in words: "not_active, saver_fixed and 'train T1 has departed'"."""
    parts = [*rules, *([repr(other)] if other else [])]
    if len(parts) < 2:
        return "".join(parts) or "no rule"
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def reasons(call: Callable[[], Any]) -> Reasons:
    """The reasons `call()` (a policy check, or a tool call) is refused; Reasons(()) when it
    passes. A ToolError or another exception with no rule broken before it is raised."""
    with collecting() as found:
        try:
            call()
        except PolicyError as exc:  # raised with a bare `raise`: the rules after it are unseen
            found.append(exc)
        except Exception as exc:
            if not found:
                raise
            other = str(exc) if isinstance(exc, ToolError) else f"{type(exc).__name__}: {exc}"
            return Reasons(tuple(found), other)
    return Reasons(tuple(found))


def tool_reasons(
    toolkit: type[Toolkit], state: dict[str, Any], name: str, arguments: dict[str, Any]
) -> Reasons:
    """The reasons tool `name` refuses `arguments` on a scratch copy of `state` (what
    check-domain asks of a refusal task's refused call); a ToolError that is no rule counts
    as `other` here too."""
    kit = toolkit(worlds.MEMO.copy(state))
    try:
        return reasons(lambda: getattr(kit, name)(**arguments))
    except ToolError as exc:
        return Reasons((), str(exc))
