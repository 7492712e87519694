"""Build a run's seeded bank (its world): customers, accounts, cards, payees, history.

The state is plain JSON, keyed by id. Everything is drawn from the rng handed in (faker is
reseeded from it), so the same rng gives the same bank. One world holds 150-180 customers, each
with a checking account and its debit card, usually a savings account (a few of them emptied), a
handful of transactions per account and one or two external payees (each with the caller's word
for them: "my landlord"): about 1,700 records. Every task of a run starts from it.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from faker import Faker

from domains.bank.rules import TIERS, TODAY, to_dollars

DAYS_AGO = [(TODAY - timedelta(days=d)).isoformat() for d in range(200)]
EMAIL_DOMAINS = ("example.com", "mail.example.org", "inbox.example.net")
MERCHANTS = (
    "Amazon Marketplace",
    "Whole Foods",
    "Shell Gas",
    "Netflix",
    "Uber Trips",
    "Target",
    "Best Buy",
    "Starbucks",
    "Delta Air Lines",
    "Home Depot",
    "Apple Store",
    "Walgreens",
    "Costco",
    "Spotify",
    "Chipotle",
    "Marriott Hotels",
    "IKEA",
    "Lyft Rides",
    "Etsy",
    "Sephora",
)
EMPLOYERS = ("Acme Corp", "Globex Inc", "Initech", "Umbrella Health", "Stark Logistics")
PAYEE_BANKS = ("First National Bank", "Harbor Credit Union", "Summit Savings", "Pacific Trust")
BILLERS = {
    "City Power & Light": "electricity company",
    "Metro Water Utility": "water company",
    "Oakridge Property Mgmt": "landlord",
    "Verity Mobile": "phone company",
}
PEOPLE = ("sister", "brother", "friend", "cleaner", "tutor", "gardener", "cousin", "flatmate")


def build_world(rng: random.Random, customers: int | None = None) -> dict[str, Any]:
    """A bank of `customers` customers (150 to 180 when None), drawn from `rng` alone."""
    fake = Faker("en_US", use_weighting=False)  # uniform picks: several times faster
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {
        "today": TODAY.isoformat(),
        "customers": {},
        "accounts": {},
        "cards": {},
        "transactions": {},
        "payees": {},
        "disputes": {},
    }
    for _ in range(rng.randint(150, 180) if customers is None else customers):
        add_customer(state, rng, fake)
    return state


def _slug(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _unique(rng: random.Random, table: Any, make: Any) -> str:
    while (key := make(rng)) in table:
        pass
    return key


def add_customer(state: dict[str, Any], rng: random.Random, fake: Faker) -> dict[str, Any]:
    """Add one customer with a checking account, maybe a savings account, and payees."""
    first, last = fake.first_name(), fake.last_name()
    cid = _unique(rng, state["customers"], lambda r: f"CUS-{r.randint(10000, 99999)}")
    taken = {c["email"] for c in state["customers"].values()}
    email = _unique(
        rng,
        taken,
        lambda r: f"{_slug(first)}.{_slug(last)}{r.randint(1, 999)}@{r.choice(EMAIL_DOMAINS)}",
    )
    customer = {
        "customer_id": cid,
        "name": f"{first} {last}",
        "email": email,
        "phone": fake.numerify("(###) ###-####"),
        "address": f"{fake.street_address()}, {fake.city()}, {fake.state_abbr()} {fake.postcode()}",
        "tier": rng.choices(list(TIERS), weights=(5, 3, 2))[0],
    }
    state["customers"][cid] = customer
    payees = [add_payee(state, rng, customer, fake) for _ in range(rng.randint(1, 2))]
    checking = add_account(state, rng, customer, "checking")
    if rng.random() < 0.75:
        savings = add_account(state, rng, customer, "savings")
        if rng.random() < 0.15:
            savings["balance"] = 0.0  # emptied, not yet closed
    if rng.random() < 0.3:
        amount = -rng.randint(5_000, 150_000)
        payee = rng.choice(payees)["name"]
        add_transaction(state, rng, checking["account_id"], 0, "external_transfer", amount, payee)
    return customer


def add_account(
    state: dict[str, Any], rng: random.Random, customer: dict[str, Any], kind: str
) -> dict[str, Any]:
    """Add a checking (with a debit card and purchases) or savings account to `customer`."""
    aid = _unique(rng, state["accounts"], lambda r: f"ACC-{r.randint(10**7, 10**8 - 1)}")
    checking = kind == "checking"
    low, high = (20_000, 600_000) if checking else (50_000, 2_500_000)
    account = {
        "account_id": aid,
        "customer_id": customer["customer_id"],
        "type": kind,
        "status": "frozen" if rng.random() < 0.08 else "open",
        "balance": to_dollars(rng.randint(low, high)),
        "currency": "USD",
        "opened": DAYS_AGO[199 - rng.randint(0, 60)],
    }
    state["accounts"][aid] = account
    if checking:
        card = add_card(state, rng, account, TIERS[customer["tier"]].card_limit_max)
        for merchant in rng.sample(MERCHANTS, rng.randint(2, 4)):
            amount = -rng.randint(500, 40_000)
            days = rng.randint(1, 110)
            txn = add_transaction(state, rng, aid, days, "card_purchase", amount, merchant)
            txn["card_id"] = card["card_id"]
        employer = rng.choice(EMPLOYERS)
        for days in rng.sample(range(1, 60), 1 if rng.random() < 0.7 else 2):
            pay = rng.randint(100_000, 400_000)
            add_transaction(state, rng, aid, days, "deposit", pay, f"Payroll - {employer}")
        if rng.random() < 0.4:
            add_transaction(state, rng, aid, rng.randint(1, 40), "atm_withdrawal", -10_000, "ATM")
    else:
        if rng.random() < 0.5:
            deposit = rng.randint(10_000, 90_000)
            days = rng.randint(20, 90)
            add_transaction(state, rng, aid, days, "deposit", deposit, "Mobile deposit")
        add_transaction(state, rng, aid, 16, "interest", rng.randint(50, 2_000), "Interest")
    return account


def add_card(
    state: dict[str, Any], rng: random.Random, account: dict[str, Any], limit_max: int
) -> dict[str, Any]:
    card_id = _unique(rng, state["cards"], lambda r: f"CARD-{r.getrandbits(24):06X}")
    card = {
        "card_id": card_id,
        "account_id": account["account_id"],
        "last4": f"{rng.randint(0, 9999):04d}",
        "status": "blocked" if rng.random() < 0.1 else "active",
        "daily_limit": rng.choice(range(500, limit_max + 1, 250)),
    }
    state["cards"][card_id] = card
    return card


def add_payee(
    state: dict[str, Any], rng: random.Random, customer: dict[str, Any], fake: Faker
) -> dict[str, Any]:
    pid = _unique(rng, state["payees"], lambda r: f"PAY-{r.randint(1000, 9999)}")
    cid = customer["customer_id"]
    taken = {p["name"] for p in state["payees"].values() if p["customer_id"] == cid}
    if rng.random() < 0.4:
        name = rng.choice(sorted(BILLERS))
        relation = BILLERS[name]
    else:
        relation = rng.choice(PEOPLE)
        first = {"sister": fake.first_name_female, "brother": fake.first_name_male}.get(
            relation, fake.first_name
        )()  # "my brother Elaine Chambers" reads as a wrong record
        name = f"{first} {fake.last_name()}"
    if name in taken:
        name = f"{name} ({rng.choice(PAYEE_BANKS).split()[0]})"
    payee = state["payees"][pid] = {
        "payee_id": pid,
        "customer_id": cid,
        "name": name,
        "bank": rng.choice(PAYEE_BANKS),
        "account_last4": f"{rng.randint(0, 9999):04d}",
        "relation": relation,
    }
    return payee


def add_transaction(
    state: dict[str, Any],
    rng: random.Random,
    account_id: str,
    days_ago: int,
    kind: str,
    cents: int,
    counterparty: str,
) -> dict[str, Any]:
    """Add a posted transaction of the seeded history (it does not change the balance)."""
    tid = _unique(rng, state["transactions"], lambda r: f"TX-{r.getrandbits(32):08X}")
    txn = state["transactions"][tid] = {
        "transaction_id": tid,
        "account_id": account_id,
        "date": DAYS_AGO[days_ago],
        "type": kind,
        "amount": to_dollars(cents),
        "counterparty": counterparty,
        "status": "posted",
    }
    return txn
