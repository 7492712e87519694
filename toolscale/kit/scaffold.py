"""`toolscale new-domain NAME`: write a small declared stateful domain that passes check-domain.

The domain is named NAME (`NameDomain`, `NameTools`) and written in the style of
domains/restaurant/, in the five files every kit v2 domain has: a world generator (`world.py`:
customers and their requests), the rules module whose constants fill policy.md (`rules.py`:
a refusal rule and a hand-off rule), tools linked into a tool graph (`tools.py`: `finder` and
`lister` look-ups, a WRITE that raises both rules, shared parameters described once in
`param_docs`), and three goals (`__init__.py`: close a request, ask how long it has been open,
work out a credit with `calculate`), plus `test_NAME.py`, which runs check-domain --strict on it.
Every tool is in some gold path, so `toolscale check-domain NAME --strict` and the test pass as
written; replace the requests with your domain one piece at a time, keeping both passing.
docs/kit.md describes every field.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from toolscale.core.errors import ConfigError
from toolscale.kit.packaging import placement, register

INIT = '''"""The {name} domain (stateful, kit v2), from `toolscale new-domain`: customers, requests.

Declared, not templated: the world (`world.build_world`), the tool graph (`tools`, with `finder`,
`lister` and `@raises`), the policy (`rules`, rendered into policy.md) and the goals below; the
kit composes the tasks from them (docs/kit.md says what each field does).
"""

from __future__ import annotations

import random
from typing import Any

from domains_pkg.{name} import rules
from domains_pkg.{name}.tools import {cls_tools}
from domains_pkg.{name}.world import build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain


def _ticket(draw: Draw) -> dict[str, Any]:
    return {{"ticket_id": draw["ticket"]["ticket_id"]}}


ENTITIES = (
    Entity("customer", "customers", "customer_id"),
    Entity(
        "ticket",
        "tickets",
        "ticket_id",
        owner="customer",
        owner_key="customer_id",
        describe=lambda t, w, precise: (
            f"my ticket about {{t['topic']}}" + (f" from {{t['opened']}}" if precise else "")
        ),
        alike=lambda t: t["topic"],
        tell="opened",
        labels={{"opened": "date the ticket was opened"}},
    ),
)
GOALS = (
    Goal(
        "close",
        "close_ticket",
        ("ticket",),
        _ticket,
        words=("close {{ticket}}", "mark {{ticket}} as solved"),
        done="{{ticket}} is closed.",
        check=rules.check_close,
        motives=("The problem went away.", "I fixed it myself."),
    ),
    Goal(
        "age",
        "get_ticket",
        ("ticket",),
        _ticket,
        words=("how many hours {{ticket}} has been open",),
        done="{{ticket}} has been open for {{hours_open}} hours.",
        report=("hours_open",),
        motives=("Nobody has answered yet.",),
    ),
    Goal(
        "credit",
        "calculate",
        ("ticket",),
        lambda d: {{"expression": f"{{d['ticket']['hours_open']}} * {{rules.CREDIT_PER_HOUR}}"}},
        words=("what credit I get for {{ticket}}",),
        done="Your credit for {{ticket}} is {{result}} dollars.",
        report=("result",),
        before=(("get_ticket", _ticket),),
        motives=("I was told I'd be compensated.",),
    ),
)


class {cls}(StatefulDomain):
    """The {name} desk: about 80 customers and their requests per run seed."""

    name = "{name}"
    version = "0.1"
    toolkit = {cls_tools}
    rules = rules
    entities = ENTITIES
    goals = GOALS

    def build_world(self, rng: random.Random) -> dict[str, Any]:
        return build_world(rng)
'''

RULES = '''"""The {name} policy as code: constants (policy.md is rendered from them) and rules."""

from __future__ import annotations

from typing import Any

from toolscale.kit import PolicyError, lookup

CREDIT_PER_HOUR = 0.5
URGENT = "urgent"


class AlreadyClosed(PolicyError):
    pass


class Urgent(PolicyError):
    handoff = True


def check_close(state: dict[str, Any], ticket_id: str) -> None:
    ticket = lookup(state, "tickets", ticket_id, "ticket")
    # raise_if, not a bare raise: the kit then sees every rule a request breaks, and draws each
    # refusal for one reason only (toolscale.kit.broken_rules)
    AlreadyClosed.raise_if(
        ticket["status"] != "open", f"ticket {{ticket_id}} is already closed", ticket["status"]
    )
    Urgent.raise_if(
        ticket["priority"] == URGENT,
        f"ticket {{ticket_id}} is {{URGENT}}: only a human agent may close it",
        ticket["priority"],
        ticket["hours_open"],
    )
'''

TOOLS = '''"""The {name} agent's tools: find customers and their requests, close a request;
every rule is checked by `rules`."""

from __future__ import annotations

from typing import Any, ClassVar

from domains_pkg.{name} import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import Record, finder, lister, lookup, raises
from toolscale.tools.generic import StatefulGenericTools


class {cls_tools}(StatefulGenericTools):
    """Tools over one task's {name} database (`self.state`). Outputs are JSON objects."""

    param_docs: ClassVar[dict[str, str]] = {{
        "customer_id": 'The customer id, such as "C1234".',
        "ticket_id": 'The request id, such as "T12345".',
    }}

    get_customer = finder("customer", "customer_id", "Get a customer's profile: name and email.")
    find_customer_by_email = finder("customer", "email")
    list_customer_tickets = lister(
        "ticket",
        "customer",
        "List a customer's requests: topic, date opened, status, priority and hours open.",
    )
    get_ticket = finder(
        "ticket", "ticket_id", "Get a request: topic, date opened, status, priority and hours open."
    )

    @tool(ToolKind.WRITE)
    @raises(rules.AlreadyClosed, rules.Urgent)
    def close_ticket(self, ticket_id: str) -> Record:
        """Close an open request."""
        rules.check_close(self.state, ticket_id)
        ticket: dict[str, Any] = lookup(self.state, "tickets", ticket_id, "ticket")
        ticket["status"] = "closed"
        return ticket
'''

WORLD = '''"""Build a run's support desk: 80 customers with one to four tickets each."""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

TOPICS = ("billing", "login", "delivery", "refund", "password", "invoice", "account")


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {{"customers": {{}}, "tickets": {{}}}}
    tickets = iter(rng.sample(range(10000, 100000), 400))
    for number in rng.sample(range(1000, 10000), 80):
        cid = f"C{{number}}"
        email = f"{{fake.user_name()}}{{number}}@example.com"
        state["customers"][cid] = {{"customer_id": cid, "name": fake.name(), "email": email}}
        for _ in range(rng.randint(1, 4)):
            tid = f"T{{next(tickets)}}"
            state["tickets"][tid] = {{
                "ticket_id": tid,
                "customer_id": cid,
                "topic": rng.choice(TOPICS),
                "opened": f"2025-06-{{rng.randint(1, 28):02d}}",
                "status": rng.choice(("open", "open", "closed")),
                "priority": rng.choice(("normal", "normal", "urgent")),
                "hours_open": rng.randint(3, 300),
            }}
    return state
'''

POLICY = """# {name}: agent policy

You are the {name} desk's agent. Find the caller's profile by email or customer id, and the ticket
by its id or from the caller's tickets; if two tickets fit what the caller said, ask which.
Confirm every change with the caller first. Only open tickets can be closed; an {{URGENT}}
ticket is closed only by a human agent: transfer the caller. A support credit is
${{CREDIT_PER_HOUR:.2f}} per hour the ticket has been open; use the calculator.
"""


TEST = '''"""The {name} domain passes every check of `toolscale check-domain --strict`.

{about}
"""

from __future__ import annotations

import os

from toolscale.check.check_domain import CheckDomainConfig, check_domain


def test_the_{name}_domain_passes_check_domain_strict(monkeypatch) -> None:
    # Installed as an entry point, or named here (sandbox workers inherit the variable).
    entry = "{name}={module}:{cls}"
    known = os.environ.get("TOOLSCALE_DOMAINS", "")
    if entry not in known:
        monkeypatch.setenv("TOOLSCALE_DOMAINS", f"{{known}},{{entry}}" if known else entry)
    report = check_domain("{name}", CheckDomainConfig(tasks=40, strict=True, fuzz=8))
    assert report.lines() == []
'''
KIT_ABOUT = (
    "Run it with pytest on this folder; keep it passing while you change the domain (docs/kit.md)."
)


def domain_test(name: str, cls: str, module: str, about: str = KIT_ABOUT) -> str:
    """The text of a domain folder's test: `check-domain --strict` on the domain `module:cls`
    (registered through TOOLSCALE_DOMAINS unless installed), with `about` under its title."""
    return TEST.format(name=name, cls=cls, module=module, about=about)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def class_name(name: str) -> str:
    return camel(name) + "Domain"


def default_into() -> Path:
    """Where `new-domain` writes without --into: ./domains in a toolscale checkout (a package
    there), else ./my_domains."""
    return Path("domains") if Path("domains/__init__.py").is_file() else Path("my_domains")


def new_domain(name: str, into: Path | str | None = None) -> list[Path]:
    """Write domain `name` into `into/NAME`; returns the files written. A new or empty `into`
    becomes an installable package (its own pyproject.toml, with the domain's entry point in the
    `toolscale.domains` group; its import name is the folder's name), one written so before gets
    the new entry point too, and a package folder of another project (one with `__init__.py`,
    such as toolscale's own `domains/`) gets the domain alone; None: `default_into()`.
    ConfigError for a bad name, a domain folder that exists, or a folder that is none of
    these."""
    into = default_into() if into is None else Path(into)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ConfigError(
            f"domain name {name!r} must be a lower-case Python identifier, such as 'library'"
        )
    folder = into / name
    if folder.exists():
        raise ConfigError(f"{folder} already exists; choose another name or remove it")
    place = placement(into)
    package = place.package
    files = {
        "__init__.py": INIT,
        "rules.py": RULES,
        "tools.py": TOOLS,
        "world.py": WORLD,
        "policy.md": POLICY,
    }
    register(place, name, class_name(name))
    folder.mkdir()
    written = []
    for file, template in files.items():
        text = template.format(
            name=name, cls=class_name(name), cls_tools=camel(name) + "Tools"
        ).replace("domains_pkg", package)
        (folder / file).write_text(text, encoding="utf-8")
        written.append(folder / file)
    test = folder / f"test_{name}.py"
    test.write_text(domain_test(name, class_name(name), f"{package}.{name}"), encoding="utf-8")
    return [*written, test]
