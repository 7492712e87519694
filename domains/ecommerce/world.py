"""Build a run's shop: ~60 products with variants, 150 customers with addresses, ~500 orders,
gift cards.

Orders were placed up to 80 days before `rules.TODAY`: the last two days' are processing, the
week before shipped, older ones delivered (some cancelled, a few items already returned); many
customers bought in one category more than once. The result depends only on the rng handed in.
"""

from __future__ import annotations

import random
from typing import Any

from faker import Faker

from domains.ecommerce import rules
from domains.ecommerce.rules import shift

# category: (product names, option kind, options, price range)
# fmt: off
CATALOGUE = {
    "apparel": ("Harbor Hoodie,Linen Overshirt,Merino Crew,Rain Shell,Fleece Vest,Chino Shorts,"
                "Field Coat", "size", ("S", "M", "L", "XL"), (25, 140)),
    "footwear": ("Trail Runner,Canvas Sneaker,Leather Boot,Court Shoe,Slip-On Loafer,Hiking Boot",
                 "size", ("7", "8", "9", "10", "11"), (45, 190)),
    "electronics": ("Pulse Earbuds,Volt Speaker,Nimbus Tablet,Arc Smartwatch,Beam Projector,"
                    "Echo Keyboard", "colour", ("black", "silver", "blue", "white"), (40, 900)),
    "home": ("Stoneware Mug Set,Wool Throw,Cedar Lamp,Linen Duvet,Copper Kettle,Oak Side Table",
             "colour", ("sand", "slate", "olive", "rust"), (20, 260)),
    "outdoor": ("Day Pack,Camp Stove,Trek Poles,Dome Tent,Water Filter,Sleeping Pad", "colour",
                ("green", "orange", "grey"), (30, 420)),
}
# fmt: on
EDITIONS = ("", "Pro ", "Lite ")
CARRIERS = ("Parcelwise", "SwiftPost", "Northline Freight")
LABELS = ("home", "work", "parents", "holiday flat")


def _products(rng: random.Random) -> dict[str, Any]:
    products: dict[str, Any] = {}
    numbers = iter(rng.sample(range(100, 1000), 100))
    variants = iter(rng.sample(range(10000, 100000), 600))
    for category, (names, kind, options, (low, high)) in CATALOGUE.items():
        for base in names.split(","):
            for edition in rng.sample(EDITIONS, 2):
                pid, price = f"P{next(numbers)}", float(rng.randint(low, high)) - 0.01
                products[pid] = {
                    "product_id": pid,
                    "name": f"{edition}{base}" if edition else base,
                    "category": category,
                    "final_sale": rng.random() < 0.15,
                    "variants": [
                        {
                            "variant_id": f"V{next(variants)}",
                            "option": f"{kind} {option}" if kind == "size" else option,
                            "price": price + (rng.choice((0, 0, 5, 10)) if kind != "size" else 0),
                            "stock": rng.choice((0, 0, 2, 5, 9, 14, 30)),
                        }
                        for option in sorted(rng.sample(options, rng.randint(2, len(options))))
                    ],
                }
    return products


def _order(state: dict, rng: random.Random, cid: str, category: str, age: int) -> None:
    oid = f"O{state['next_order']}"
    state["next_order"] += rng.randint(1, 40)
    placed = shift(rules.TODAY, -age)
    pool = [p for p in state["products"].values() if p["category"] == category]
    first = [rng.choice(pool)]  # one category an order: "my clothing order" holds clothes
    others = rng.sample(pool, rng.choice((0, 0, 1, 2)))
    items = []
    for product in dict.fromkeys(p["product_id"] for p in first + others):
        variant = rng.choice(state["products"][product]["variants"])
        items.append({"product_id": product, "variant_id": variant["variant_id"]})
        items[-1].update(name=state["products"][product]["name"], option=variant["option"])
        items[-1]["category"] = state["products"][product]["category"]
        items[-1].update(quantity=rng.choice((1, 1, 1, 2)), price=variant["price"], status="ok")
    status = "processing" if age <= 1 else "shipped" if age <= 6 else "delivered"
    if rng.random() < 0.08:
        status = "cancelled"
    addresses = [a for a in state["addresses"].values() if a["customer_id"] == cid]
    state["orders"][oid] = order = {
        "order_id": oid,
        "customer_id": cid,
        "placed_on": placed,
        "status": status,
        "items": items,
        "address_id": rng.choice(addresses)["address_id"],
        "shipping": rng.choice(("standard", "standard", "express")),
        "payment": rng.choice(("card", "card", "store credit")),
        "delivered_on": shift(placed, rng.randint(3, 6)) if status == "delivered" else "",
        "tracking": f"{rng.choice(CARRIERS)} {rng.randint(10**9, 10**10)}",
        "refunded": 0.0,
    }
    if status == "delivered" and rng.random() < 0.15:
        order["items"][-1]["status"] = "returned"
    if status == "processing":
        order["tracking"] = ""


def build_world(rng: random.Random) -> dict[str, Any]:
    fake = Faker()
    fake.seed_instance(rng.getrandbits(64))
    state: dict[str, Any] = {"today": rules.TODAY, "customers": {}, "addresses": {}, "orders": {}}
    state.update(products=_products(rng), gift_cards={}, next_order=rng.randint(100000, 400000))
    state["next_address"] = rng.randint(1000, 5000)
    for number in rng.sample(range(1000, 10000), 150):
        first, last = fake.first_name(), fake.last_name()
        cid = f"K{number}"
        state["customers"][cid] = {
            "customer_id": cid,
            "name": f"{first} {last}",
            "email": f"{first[0]}{last}{number % 97}@example.net".lower(),
            "phone": f"555-{number:04d}",
            "tier": rng.choices(rules.TIERS, weights=(4, 1))[0],
            "store_credit": float(rng.choice((0, 0, 0, 15, 40))),
        }
        for label in rng.sample(LABELS, rng.choice((1, 2, 2, 3, 4))):
            aid = f"AD{state['next_address']}"
            state["next_address"] += 1
            street = f"{rng.randint(1, 240)} {fake.street_name()}"
            state["addresses"][aid] = {"address_id": aid, "customer_id": cid, "label": label}
            state["addresses"][aid].update(street=street, city=fake.city(), zip=fake.zipcode())
    for cid in state["customers"]:
        favourite = rng.choice(list(CATALOGUE))
        for _ in range(rng.randint(1, 6)):
            category = favourite if rng.random() < 0.5 else rng.choice(list(CATALOGUE))
            _order(state, rng, cid, category, rng.choice((0, 1, *range(2, 81))))
    for number in rng.sample(range(10**7, 10**8), 90):
        code = f"GC-{number}"
        redeemed = rng.random() < 0.2
        state["gift_cards"][code] = {
            "code": code,
            "balance": 0.0 if redeemed else float(rng.choice((10, 25, 50, 75, 100))),
            "expires_on": shift(rules.TODAY, rng.randint(-120, 400)),
            "redeemed_on": shift(rules.TODAY, -rng.randint(2, 60)) if redeemed else "",
        }
    return state
