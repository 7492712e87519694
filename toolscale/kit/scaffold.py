"""`toolscale new-domain NAME`: write a small declared stateful domain that passes check-domain.

The scaffold is a support desk (customers and their tickets): a world generator, tools linked
into a tool graph (two finders, a lister, a WRITE that raises a refusal rule and a hand-off
rule), the rules module whose constants fill policy.md, and three goals (close a ticket, ask how
long it has been open, work out a support credit with `calculate`). Every tool is in some gold
path, so `toolscale check-domain NAME --strict` passes as written; replace the desk with your
domain one piece at a time, keeping it passing. docs/kit.md describes every field.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from toolscale.core.errors import ConfigError

INIT = '''"""The {name} domain (stateful, kit v2): a support desk from `toolscale new-domain`."""

from __future__ import annotations

import random
from typing import Any

from domains_pkg.{name} import rules
from domains_pkg.{name}.tools import DeskTools
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
    name = "{name}"
    version = "0.1"
    toolkit = DeskTools
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
    if ticket["status"] != "open":
        raise AlreadyClosed(f"ticket {{ticket_id}} is already closed", shows=(ticket["status"],))
    if ticket["priority"] == URGENT:
        raise Urgent(
            f"ticket {{ticket_id}} is {{URGENT}}: only a human agent may close it",
            shows=(ticket["priority"], ticket["hours_open"]),
        )
'''

TOOLS = '''"""The {name} agent's tools: find customers and tickets, close a ticket."""

from __future__ import annotations

from typing import Any

from domains_pkg.{name} import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.generic import StatefulGenericTools


class DeskTools(StatefulGenericTools):
    """Tools over one task's support desk (`self.state`)."""

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer(self, customer_id: str) -> dict[str, Any]:
        """Get a customer's profile: name and email.

        Args:
            customer_id: The customer id, such as "C1234".
        """
        return lookup(self.state, "customers", customer_id, "customer")

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def find_customer_by_email(self, email: str) -> dict[str, Any]:
        """Find a customer by email address.

        Args:
            email: The customer's email address.
        """
        return find_by(self.state, "customers", "email", email, "customer")

    @tool(ToolKind.READ)
    @lists("ticket", of="customer")
    def list_customer_tickets(self, customer_id: str) -> list[dict[str, Any]]:
        """List a customer's tickets: topic, date opened, status, priority and hours open.

        Args:
            customer_id: The customer id, such as "C1234".
        """
        customer = lookup(self.state, "customers", customer_id, "customer")
        tickets = self.state["tickets"].values()
        return [t for t in tickets if t["customer_id"] == customer["customer_id"]]

    @tool(ToolKind.READ)
    @finds("ticket", by="ticket_id")
    def get_ticket(self, ticket_id: str) -> dict[str, Any]:
        """Get a ticket: topic, date opened, status, priority and hours open.

        Args:
            ticket_id: The ticket id, such as "T12345".
        """
        return lookup(self.state, "tickets", ticket_id, "ticket")

    @tool(ToolKind.WRITE)
    @raises(rules.AlreadyClosed, rules.Urgent)
    def close_ticket(self, ticket_id: str) -> dict[str, Any]:
        """Close an open ticket.

        Args:
            ticket_id: The ticket id, such as "T12345".
        """
        rules.check_close(self.state, ticket_id)
        ticket = lookup(self.state, "tickets", ticket_id, "ticket")
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

You are a support-desk agent. Find the caller's profile by email or customer id, and the ticket
by its id or from the caller's tickets; if two tickets fit what the caller said, ask which.
Confirm every change with the caller first. Only open tickets can be closed; an {{URGENT}}
ticket is closed only by a human agent: transfer the caller. A support credit is
${{CREDIT_PER_HOUR:.2f}} per hour the ticket has been open; use the calculator.
"""


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Domain"


def new_domain(name: str, into: Path) -> list[Path]:
    """Write domain `name` into the package folder `into` (its import name is `into`'s folder
    name, e.g. `domains`); returns the files written. ConfigError for a bad name or a folder
    that exists."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ConfigError(
            f"domain name {name!r} must be a lower-case Python identifier, such as 'library'"
        )
    folder = into / name
    if folder.exists():
        raise ConfigError(f"{folder} already exists; choose another name or remove it")
    if not into.is_dir():
        raise ConfigError(f"{into} is not a folder; pass --into an existing package folder")
    package = into.resolve().name
    files = {
        "__init__.py": INIT,
        "rules.py": RULES,
        "tools.py": TOOLS,
        "world.py": WORLD,
        "policy.md": POLICY,
    }
    folder.mkdir()
    written = []
    for file, template in files.items():
        text = template.format(name=name, cls=class_name(name)).replace("domains_pkg", package)
        (folder / file).write_text(text, encoding="utf-8")
        written.append(folder / file)
    return written
