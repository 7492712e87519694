"""A world's people: named records with a unique id, email and phone, drawn from the rng alone
(faker names, seeded from it). Domains add their own fields (a tier, a balance) to each."""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

Record = dict[str, Any]


def people(
    rng: random.Random, count: int, prefix: str, key: str, *, low: int = 1000, high: int = 10000
) -> dict[str, Record]:
    """`count` people by id (`prefix` + a number in [low, high), also their phone's last
    digits): {"CU1234": {key: "CU1234", "name": "Ann Lee", "email": "ann.lee12@example.com",
    "phone": "555-1234"}}. Ids, emails and phones are unique."""
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    found: dict[str, Record] = {}
    emails: set[str] = set()
    for number in rng.sample(range(low, high), count):
        first, last = fake.first_name(), fake.last_name()
        email = ""
        while not email or email in emails:
            email = f"{first}.{last}{rng.randint(1, 999)}@example.com".lower().replace(" ", "")
        emails.add(email)
        pid = f"{prefix}{number}"
        found[pid] = {
            key: pid,
            "name": f"{first} {last}",
            "email": email,
            "phone": f"555-{number:04d}",
        }
    return found
