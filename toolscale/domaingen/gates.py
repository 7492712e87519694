"""The gates of one generated package, in funnel order: the sandboxed static gates, the
near-duplicate gate (here, on the signature the sandbox derived), then the sandboxed
check-domain gates and the variety gate. The first stage that fails ends the run with its
problems.

A gate outcome is `contained` when the sandbox blocked a call (a socket, the home folder, a
program) or killed the run (its time limit): such a domain is rejected at once, with no repair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolscale.domaingen.config import DomainGenConfig
from toolscale.domaingen.jail import JailResult, run_gates
from toolscale.domaingen.similar import closest, shingles

STATIC = ("import", "schemas", "size")
CHECKED = ("check_domain", "fuzz", "parrot", "variety")
STAGES = (*STATIC, "near_duplicate", *CHECKED)


@dataclass(frozen=True)
class GateOutcome:
    """Where a package stopped (`stage`; "accepted" when it passed every gate), the problems
    there, whether the model may repair them (not when contained: the sandbox blocked or killed
    it; not a near-duplicate), and what the gates measured."""

    stage: str
    problems: list[str] = field(default_factory=list)
    repairable: bool = True
    contained: bool = False
    shingles: set[str] = field(default_factory=set)
    measured: dict[str, Any] = field(default_factory=dict)

    @property
    def accepted(self) -> bool:
        return self.stage == "accepted"


def _read(result: JailResult, stages: tuple[str, ...]) -> tuple[str | None, GateOutcome | None]:
    """The stage that failed in `result` (None: all of `stages` passed), or a contained
    outcome when the sandbox blocked or killed something."""
    done = {line["stage"]: line for line in result.lines if line.get("stage") in stages}
    running = next((s for s in stages if s not in done or not done[s]["ok"]), None)
    if result.blocked:
        tried = [
            f"tried {b['event']} {b['detail']}: blocked by the sandbox" for b in result.blocked
        ]
        return running, GateOutcome(
            running or stages[-1], sorted(set(tried)), repairable=False, contained=True
        )
    if result.timed_out:
        return running, GateOutcome(
            running or stages[-1],
            ["the sandbox killed it at its time limit"],
            repairable=False,
            contained=True,
        )
    if running is not None and running not in done:
        why = result.stderr.strip()[-1500:] or f"exit code {result.exit_code}"
        return running, GateOutcome(running, [f"the sandboxed run ended early: {why}"])
    return running, None


def near_duplicate(
    signature: set[str], others: dict[str, set[str]], threshold: float
) -> tuple[dict[str, Any] | None, str | None]:
    """The closest of `others` to `signature` (as `measured["closest"]`; None when there are
    none) and, at or above `threshold`, the near-duplicate problem naming it (else None)."""
    near = closest(signature, others)
    if near is None:
        return None, None
    found = {"domain": near[0], "jaccard": near[1]}
    if near[1] < threshold:
        return found, None
    return found, f"its tools are a near-duplicate of {near[0]}'s (Jaccard {near[1]:.2f})"


def run_all(
    config: DomainGenConfig, folder: Path, name: str, others: dict[str, set[str]]
) -> GateOutcome:
    """Every gate on the package `folder`/`name`; `others` are the shingles of the bundled and
    already accepted domains."""
    timeout_s, memory_mb = config.gate_timeout_s, config.gate_memory_mb
    request = {"name": name, "phase": "static", "min_tools": config.min_tools}
    request["min_templates"] = config.min_templates
    result = run_gates(folder, request, timeout_s=timeout_s, memory_mb=memory_mb)
    failed, outcome = _read(result, STATIC)
    if outcome is not None:
        return outcome
    lines = {line["stage"]: line for line in result.lines}
    if failed is not None:
        return GateOutcome(failed, lines[failed]["problems"])
    signature = shingles(lines["schemas"]["signature"])
    measured = {k: lines["size"][k] for k in ("tools", "templates")}
    near, problem = near_duplicate(signature, others, config.dup_threshold)
    if near is not None:
        measured["closest"] = near
    if problem is not None:
        return GateOutcome("near_duplicate", [problem], False, False, signature, measured)
    settings = {"tasks": config.check_tasks, "per_template": config.check_per_template}
    settings |= {"fuzz": config.fuzz, "seed": config.seed}
    measured["domain_class"] = lines["import"]["domain_class"]
    entry = f"{name}={name}:{measured['domain_class']}"
    request = {"name": name, "phase": "check", "entry": entry, "check": settings}
    request["variety_tasks"] = config.variety_tasks
    result = run_gates(folder, request, timeout_s=timeout_s, memory_mb=memory_mb)
    failed, outcome = _read(result, CHECKED)
    for line in result.lines:  # the candidate's variety figures, passed or not
        if line.get("stage") == "variety" and "figures" in line:
            measured["variety"] = line["figures"]
    if outcome is not None:
        return GateOutcome(outcome.stage, outcome.problems, False, True, signature, measured)
    if failed is not None:
        problems = next(line["problems"] for line in result.lines if line["stage"] == failed)
        return GateOutcome(failed, problems, True, False, signature, measured)
    return GateOutcome("accepted", [], True, False, signature, measured)
