"""check-domain's findings and its report: one line per distinct problem, follow-ons left out.

A `Finding` is one problem (or, with `warning`, a weakness) on one task, on one draw of a named
template, or on the domain as a whole. The report shows each problem once:

- follow-ons are left out: on one task, only the findings of its earliest check in `ORDER` count
  (a gold route that fails is not also a route that does not verify), and on one template, only
  those of the earliest check any of its tasks failed (a template whose gold path fails on one
  draw is that one problem, whatever its other draws show, and no warning about it is shown);
  the line says how many it hides;
- identical problems are one line: the findings of one check with one message (on one template)
  are one line naming the template and its tasks and draws. Every distinct message is shown:
  none is folded into another's line (a model repairing the domain reads each one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

LISTED_TASKS = 3  # task indexes named in one line before "and N more"
# The checks of one task in the order they build on each other (toolscale.check.task_checks).
ORDER = (
    "sample",
    "schema",
    "gold",
    "determinism",
    "crash",
    "verify",
    "read_purity",
    "do_nothing",
    "parrot",
    "one_reason",
)


@dataclass(frozen=True)
class Finding:
    """One problem found by check `check`: on task `task` (an index sampled by weight, or with
    `named`, draw `task` of `template` by name), or on the domain as a whole (`task` None).
    `template` is the task's template when known; `traceback` is the worker's, when an exception
    caused it."""

    check: str
    message: str
    task: int | None = None
    warning: bool = False
    traceback: str = ""
    template: str = ""
    named: bool = False


def _rank(finding: Finding) -> int:
    return ORDER.index(finding.check) if finding.check in ORDER else len(ORDER)


def primary(findings: Iterable[Finding]) -> tuple[list[Finding], dict[str, int]]:
    """The findings that are no follow-on of another (module docstring), and per template how
    many follow-ons were left out."""
    found = list(findings)
    on_task = [f for f in found if f.task is not None and not f.warning]
    first_of_task: dict[tuple, int] = {}
    first_of_template: dict[str, int] = {}
    for f in on_task:
        key = (f.named, f.template if f.named else "", f.task)
        first_of_task[key] = min(first_of_task.get(key, len(ORDER)), _rank(f))
        if f.template:
            rank = min(first_of_template.get(f.template, len(ORDER)), _rank(f))
            first_of_template[f.template] = rank
    broken = {f.template for f in found if f.template and not f.warning}
    kept: list[Finding] = []
    hidden: dict[str, int] = {}
    for f in found:
        if f.warning and f.template in broken:  # e.g. not reached, since it fails to sample
            hidden[f.template] = hidden.get(f.template, 0) + 1
            continue
        if f.task is not None and not f.warning:
            key = (f.named, f.template if f.named else "", f.task)
            first = first_of_template.get(f.template, len(ORDER))
            if _rank(f) > min(first_of_task[key], first):
                hidden[f.template] = hidden.get(f.template, 0) + 1
                continue
        kept.append(f)
    return kept, hidden


def _listed(label: str, numbers: list[int]) -> str:
    named = ", ".join(map(str, numbers[:LISTED_TASKS]))
    more = f" and {len(numbers) - LISTED_TASKS} more" if len(numbers) > LISTED_TASKS else ""
    return f"{label}{'s' if len(numbers) > 1 else ''} {named}{more}"


@dataclass(frozen=True)
class DomainReport:
    """What check-domain found on `domain`: `tasks` tasks sampled by weight, and each of
    `templates` drawn `per_template` times by name; `rare` are those templates the weighted
    sample would hardly reach, each with its share of the draws (None: no declared weights)."""

    domain: str
    tasks: int
    findings: tuple[Finding, ...]
    per_template: int = 0
    templates: tuple[str, ...] = ()
    rare: tuple[tuple[str, float], ...] | None = None

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if not f.warning]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.warning]

    def checked(self) -> str:
        """What was checked, e.g. "50 tasks and 18 templates x 5"."""
        named = f" and {len(self.templates)} templates x {self.per_template}"
        return f"{self.tasks} tasks{named if self.templates else ''}"

    def coverage(self) -> str:
        """The line naming the rare templates the named draws checked ("" without named draws)."""
        if not self.templates:
            return ""
        line = f"checked each of {len(self.templates)} templates {self.per_template} times by name"
        if self.rare is None:
            return line
        rare = ", ".join(f"{name} ({share:.1%} of draws)" for name, share in self.rare)
        expected = f"under one draw expected in {self.tasks} tasks by weight"
        return f"{line}; rare ones ({expected}): {rare or 'none'}"

    def lines(self) -> list[str]:
        """One line per distinct problem or warning, naming where it was found."""
        kept, hidden = primary(self.findings)
        grouped: dict[tuple[bool, str, str, str], list[Finding]] = {}
        for f in kept:
            grouped.setdefault((f.warning, f.check, f.template, f.message), []).append(f)
        lines = []
        for (warning, check, _, _), group in grouped.items():
            first = group[0]
            places = [
                _listed(label, numbers)
                for label, numbers in (
                    ("task", [f.task for f in group if f.task is not None and not f.named]),
                    ("draw", [f.task for f in group if f.task is not None and f.named]),
                )
                if numbers
            ]
            where = ", ".join(([f"template {first.template}"] if first.template else []) + places)
            tail = ""
            left_out = hidden.pop(first.template, 0) if first.template and not warning else 0
            if left_out:
                tail += f"; {left_out} later finding{'s' if left_out > 1 else ''} on it left out"
            kind = "warning" if warning else "problem"
            lines.append(f"{kind} [{check}] {where}{': ' if where else ''}{first.message}{tail}")
        return lines


def first_traceback(findings: Iterable[Finding]) -> str:
    return next((f.traceback for f in findings if f.traceback), "")
