"""The texts `toolscale new-domain` writes: one domain's six files, in restaurant's dialect.

Each is a `str.format` template over the names of `toolscale.kit.scaffold.Records` (the
domain's person, thing and holding, its write's verb) and the domain's names; a literal brace
is written twice. `toolscale.kit.scaffold` fills them; nothing here is run.
"""

from __future__ import annotations

INIT = '''"""The {name} domain (stateful, kit v2), from `toolscale new-domain`: {person}s,
{thing}s and their {holding}s.

Declared, not templated: the world (`world.build_world`), the tool graph (`tools`), the policy
(`rules`, rendered into policy.md), the invariants of a world and the goals below; the kit
composes the tasks from them. Only what differs from the kit's defaults is written (docs/kit.md
says what each field does and what it defaults to).
"""

from __future__ import annotations

import random
from typing import Any

from domains_pkg.{name} import rules, world
from domains_pkg.{name}.invariants import INVARIANTS
from domains_pkg.{name}.tools import {cls_tools}
from toolscale.kit import Draw, Entity, Goal, Record, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import day


def _{holding}_words({holding}: Record, world: Record, precise: bool) -> str:
    {thing} = world["{thing}s"][{holding}["{thing}_id"]]["name"]
    when = f" from {{day({holding}['started'])}}" if precise else ""
    return f"my {holding} of {{{thing}}}{{when}}"


def _cost(draw: Draw) -> dict[str, str]:
    {thing} = draw.world["{thing}s"][draw["{holding}"]["{thing}_id"]]
    return {{"expression": f"{{draw['{holding}']['days_held']}} * {{{thing}['fee_per_day']}}"}}


ENTITIES = (
    Entity("{person}", labels={{"{person}_id": "{person} number"}}),
    Entity("{thing}", said=("name",)),
    Entity(
        "{holding}",
        owner="{person}",
        describe=_{holding}_words,
        alike=lambda r: r["{thing}_id"],
        tell="started",
        labels={{"started": "date the {holding} started"}},
    ),
)

GOALS = (
    Goal(
        "{verb}_{holding}",
        words="{verb} {{{holding}}} | please {verb} {{{holding}}}",
        done="{{{holding}}} is {past}.",
        check=rules.check_{verb},
        motives="I need a little more time. | My plans changed.",
    ),
    Goal(
        "get_{holding}",
        words="how many days {{{holding}}} has run | for how many days I have had {{{holding}}}",
        done="{{{holding}}} has run for {{days_held}} days.",
        motives="I lost track of the dates. | I want to plan ahead.",
    ),
    Goal(
        "cost",
        "calculate",
        ("{holding}",),
        _cost,
        words="what {{{holding}}} has cost me so far | how much {{{holding}}} comes to so far",
        done="{{{holding}}} has cost {{result}} dollars so far.",
        before=("get_{holding}", "get_{thing}"),
        motives="I'm doing my budget. | I was surprised by the bill.",
    ),
)


class {cls}(StatefulDomain):
    """{title}: 80 {person}s, 12 {thing}s and their {holding}s per run seed."""

    name = "{name}"
    version = "0.1"
    invariants = INVARIANTS
    identification = Identification("{person}", ("email", "{person}_id"))
    toolkit = {cls_tools}
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return world.build_world(rng)
'''

RULES = '''"""The {name} policy as code: constants (policy.md is rendered from them), one line
per rule, and the checks the tools and the composer share (pure: they never change the state)."""

from __future__ import annotations

from toolscale.kit import Record, lookup, rule

TODAY = "2025-06-30"  # the clock of every task: never date.today()
DISPUTED = "disputed"

NotActive = rule("NotActive")
Disputed = rule("Disputed", handoff=True)


def check_{verb}(state: Record, {holding}_id: str) -> Record:
    """The {holding}, if the policy lets it be {past}; else its rules' errors."""
    {holding} = lookup(state, "{holding}s", {holding}_id)
    key = {holding}["{holding}_id"]
    # raise_if, not a bare raise: the kit then sees every rule a request breaks, and draws each
    # refusal for one reason only (toolscale.kit.broken_rules)
    status = {holding}["status"]
    NotActive.raise_if(status != "active", f"{holding} {{key}} is {{status}}", status)
    Disputed.raise_if(
        {holding}["review"] == DISPUTED,
        f"{holding} {{key}} is {{DISPUTED}}: only a staff member may change it",
        {holding}["review"],
        {holding}["days_held"],
    )
    return {holding}
'''

TOOLS = '''"""The {name} agent's tools: find {person}s, their {holding}s and {thing}s;
{verb} a {holding}. Every rule is checked by `rules`."""

from __future__ import annotations

from typing import ClassVar

from domains_pkg.{name} import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Record, finder, lister, raises
from toolscale.tools.generic import StatefulGenericTools


class {cls_tools}(StatefulGenericTools):
    """Tools over one task's {name} database (`self.state`). Outputs are JSON objects."""

    param_docs: ClassVar[dict[str, str]] = {{
        "{person}_id": 'The {person} id, such as "{P}1234".',
        "{holding}_id": 'The {holding} id, such as "{H}12345".',
        "{thing}_id": 'The {thing} id, such as "{T}123".',
    }}

    get_{person} = finder("{person}", "{person}_id", "Get a {person}'s profile: name and email.")
    find_{person}_by_email = finder("{person}", "email")
    list_{person}_{holding}s = lister(
        "{holding}", "{person}", "List a {person}'s {holding}s: {thing}, start, status, days held."
    )
    get_{holding} = finder("{holding}", "{holding}_id", "Get a {holding}: status, days held.")
    get_{thing} = finder("{thing}", "{thing}_id", "Get a {thing}: its name and fee per day.")

    @tool(ToolKind.WRITE)
    @raises(rules.NotActive, rules.Disputed)
    def {verb}_{holding}(self, {holding}_id: str) -> Record:
        """{Verb} an active {holding}."""
        {holding} = rules.check_{verb}(self.state, {holding}_id)
        {holding}["status"] = "{past}"
        return {holding}
'''

WORLD = '''"""Build a run's {spoken}: 80 {person}s, 12 {thing}s, one to four {holding}s each."""

from __future__ import annotations

import random
from typing import Any

from domains_pkg.{name}.rules import DISPUTED, TODAY
from toolscale.kit.clock import shift
from toolscale.kit.people import people

WORDS = ("Amber", "Quiet", "Northern", "Silver", "Hidden", "Open", "Little", "Golden")
KINDS = ("Garden", "River", "Harbour", "Meadow", "Lantern", "Orchard", "Bridge", "Summit")


def build_world(rng: random.Random) -> dict[str, Any]:
    names = rng.sample([f"{{a}} {{b}}" for a in WORDS for b in KINDS], 12)
    {thing}s = {{}}
    for number, name in zip(rng.sample(range(100, 1000), 12), names, strict=True):
        key = f"{T}{{number}}"
        fee = rng.choice((0.25, 0.5, 1.0))
        {thing}s[key] = {{"{thing}_id": key, "name": name, "fee_per_day": fee}}
    state: dict[str, Any] = {{
        "today": TODAY,
        "{person}s": people(rng, 80, "{P}", "{person}_id"),
        "{thing}s": {thing}s,
        "{holding}s": {{}},
    }}
    numbers = iter(rng.sample(range(10000, 100000), 400))
    for key in state["{person}s"]:
        count = rng.randint(1, 4)  # two of one {thing} now and then: "which one?"
        for {thing}_id, held in zip(
            rng.choices(sorted({thing}s), k=count), rng.sample(range(1, 61), count), strict=True
        ):
            {holding}_id = f"{H}{{next(numbers)}}"
            state["{holding}s"][{holding}_id] = {{
                "{holding}_id": {holding}_id,
                "{person}_id": key,
                "{thing}_id": {thing}_id,
                "started": shift(TODAY, -held),
                "days_held": held,
                "status": rng.choice(("active", "active", "{past}", "ended")),
                "review": rng.choice(("none", "none", DISPUTED)),
            }}
    return state
'''

INVARIANTS = '''"""The {name} world's invariants (`toolscale.kit.invariants`): what it keeps."""

from __future__ import annotations

from domains_pkg.{name}.rules import TODAY
from toolscale.kit.invariants import distinct, not_after

INVARIANTS = (
    not_after("{holding}s", "started", TODAY),  # no {holding} starts tomorrow
    # two {holding}s of one {person} and {thing} start on different days, which the caller says
    distinct("{holding}s", "{person}_id", "started"),
)
'''

POLICY = """# The {spoken}: agent policy

Today is {{TODAY}}. You are the agent of the {spoken}. Find the caller's profile by email or
{person} id, and the {holding} from the caller's {holding}s; if two {holding}s fit what the
caller said, ask which. Confirm every change with the caller first. Only an active {holding}
can be {past}; a {{DISPUTED}} {holding} is changed only by a staff member: transfer the caller
to a human agent. What a {holding} costs is its days held times its {thing}'s fee per day; use
the calculator.
"""
