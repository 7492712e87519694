"""The gates that run inside the sandbox, on one generated package: run only by
`toolscale.domaingen.jail`, never imported by the process that drives a run.

Phase "static": import (the package imports and defines its domain class), schemas (every
tool's schema derives, `check-domain`'s schema findings), size (tools and templates), and the
tool signature the near-duplicate gate compares. Phase "check": `check_domain --strict`, its
findings split into the funnel's stages (fuzz: hostile arguments; parrot: the parrot and
do-nothing attempts; check_domain: the rest), then variety (`toolscale.check.variety`: the
first-message 3-grams, reason sharing and user follow-ups of its tasks against the bundled
domains' floor). Each stage's outcome is one line on the saved stdout, tagged with the run's
nonce; a failed stage ends the phase.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import traceback
from typing import Any

from toolscale.check.check_domain import CheckDomainConfig, check_domain
from toolscale.check.findings import first_traceback
from toolscale.check.task_checks import schema_findings
from toolscale.check.variety import FLOOR, below, measure
from toolscale.core.contract import Domain
from toolscale.core.registry import get_domain

PARROT_CHECKS = ("parrot", "do_nothing")
TRACE_LINES = 12


class Emitter:
    """Writes tagged lines to the stdout the run started with (the domain's prints go to the
    same place untagged, and are ignored)."""

    def __init__(self, nonce: str) -> None:
        self.nonce = nonce
        self.fd = os.dup(1)

    def __call__(self, stage: str, problems: list[str], **extra: Any) -> bool:
        line = json.dumps({"stage": stage, "ok": not problems, "problems": problems, **extra})
        os.write(self.fd, f"{self.nonce} {line}\n".encode())
        return not problems


def _tail(text: str) -> str:
    return "\n".join(text.rstrip().splitlines()[-TRACE_LINES:])


def _domain_class(name: str) -> tuple[type[Domain] | None, list[str]]:
    try:
        module = importlib.import_module(name)
    except BaseException:
        return None, [f"importing {name} failed:\n{_tail(traceback.format_exc())}"]
    found = [
        v
        for v in vars(module).values()
        if inspect.isclass(v) and issubclass(v, Domain) and getattr(v, "name", "") == name
    ]
    if len(found) != 1:
        return None, [f"{name}/__init__.py defines {len(found)} Domain classes named {name!r}"]
    return found[0], []


def static(name: str, emit: Emitter, min_tools: int, min_templates: int) -> bool:
    cls, problems = _domain_class(name)
    if cls is None:
        return emit("import", problems)
    os.environ["TOOLSCALE_DOMAINS"] = f"{name}={name}:{cls.__name__}"
    try:
        domain = get_domain(name)
    except BaseException:
        return emit("import", [f"building the domain failed:\n{_tail(traceback.format_exc())}"])
    if not emit("import", [], domain_class=cls.__name__):
        return False
    problems = [f.message for f in schema_findings(domain.toolkit)]
    schemas: list[dict[str, Any]] = []
    if not problems:
        try:
            schemas = domain.toolkit.schemas()
        except BaseException:
            problems = [f"tool schemas do not derive:\n{_tail(traceback.format_exc())}"]
    if not emit("schemas", problems, signature=schemas):
        return False
    tools, templates = len(domain.toolkit.specs()), len(domain.templates)
    problems = []
    if tools < min_tools:
        problems.append(f"{tools} tools; an accepted domain has at least {min_tools}")
    if templates < min_templates:
        problems.append(f"{templates} task templates; an accepted domain has at least "
                        f"{min_templates} (more goals, or rules their tools raise)")  # fmt: skip
    return emit("size", problems, tools=tools, templates=templates)


def _stage(check_name: str) -> str:
    if check_name == "fuzz":
        return "fuzz"
    return "parrot" if check_name in PARROT_CHECKS else "check_domain"


def check(name: str, emit: Emitter, settings: dict[str, Any], variety_tasks: int) -> bool:
    _, problems = _domain_class(name)
    if problems:
        return emit("check_domain", problems)
    try:
        report = check_domain(name, CheckDomainConfig(strict=True, workers=2, **settings))
    except BaseException:
        return emit("check_domain", [f"check-domain failed:\n{_tail(traceback.format_exc())}"])
    by_stage: dict[str, list[str]] = {"check_domain": [], "fuzz": [], "parrot": []}
    for line in report.lines():  # "problem [check] where: message"
        check_name = line.partition("[")[2].partition("]")[0]
        by_stage[_stage(check_name)].append(line)
    for stage, found in by_stage.items():
        trace = first_traceback(f for f in report.findings if _stage(f.check) == stage)
        if found and trace:
            found.append(f"the first traceback:\n{_tail(trace)}")
        if not emit(stage, found):
            return False
    return variety(name, emit, variety_tasks, settings["seed"])


def variety(name: str, emit: Emitter, tasks: int, seed: int) -> bool:
    """The variety stage: the figures of `tasks` tasks against the floor at that count."""
    try:
        found = measure(get_domain(name), tasks, seed)
    except BaseException:
        return emit("variety", [f"measuring its tasks failed:\n{_tail(traceback.format_exc())}"])
    return emit("variety", below(found, FLOOR.at(tasks)), figures=found)


def main(request_text: str) -> None:
    request = json.loads(request_text)
    emit = Emitter(request["nonce"])
    name = request["name"]
    if request["phase"] == "static":
        static(name, emit, request["min_tools"], request["min_templates"])
    else:
        os.environ["TOOLSCALE_DOMAINS"] = request["entry"]
        check(name, emit, request["check"], request["variety_tasks"])
