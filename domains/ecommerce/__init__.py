"""The ecommerce domain (stateful, kit v2): an online shop's support desk.

Orders are cancelled, re-addressed or upgraded before they ship; delivered items are returned or
exchanged within the window; addresses are saved and gift cards redeemed. The kit composes every
task from the entities, the tool graph (`tools`) and the goals below (toolscale.kit.compose).
"""

from __future__ import annotations

from typing import Any

from domains.ecommerce import rules
from domains.ecommerce.invariants import INVARIANTS
from domains.ecommerce.tools import EcommerceTools
from domains.ecommerce.world import CATALOGUE, LABELS, build_world
from toolscale.kit import Draw, Entity, Goal, StatefulDomain
from toolscale.kit.identify import Identification
from toolscale.kit.words import day

Record = dict[str, Any]
KINDS = dict(apparel="clothing", footwear="shoe", electronics="electronics", home="homeware")
KINDS["outdoor"] = "camping gear"
STREETS = ("Alder Row", "Quarry Lane", "Fenwick Road", "Marsh Street", "Tillery Way")
GIVERS = (
    "my aunt",
    "my boss",
    "a neighbour",
    "my brother",
    "my old flatmate",
    "a client",
    "my grandmother",
    "the school fair",
    "my book club",
)
CITIES = (("Brookfield", "30412"), ("Lowell Bay", "61207"), ("Easton", "80915"))


def _order_words(order: Record, world: Record, precise: bool) -> str:
    noun = ("order", "purchase", "delivery")[int(order["order_id"][1:]) % 3]
    when = f" from {day(order['placed_on'])}" if precise else ""
    return f"my {KINDS[order['items'][0]['category']]} {noun}{when}"


def _address_words(address: Record, world: Record, precise: bool) -> str:
    return f"my {address['label']} address" + (f" on {address['street']}" if precise else "")


ENTITIES = (
    Entity("customer"),
    Entity("product", said=("name",)),
    Entity(
        "order",
        owner="customer",
        describe=_order_words,
        alike=lambda r: r["items"][0]["category"],
        tell="placed_on",
        labels={"placed_on": "order date"},
    ),
    Entity(
        "address",
        "addresses",
        owner="customer",
        describe=_address_words,
        alike=lambda r: r["label"],
        tell="street",
    ),
    Entity("gift_card", key="code", labels={"code": "gift card code"}),
)


def _oid(draw: Draw) -> dict[str, Any]:
    return {"order_id": draw["order"]["order_id"]}


def _item(draw: Draw) -> dict[str, Any]:
    item = draw.rng.choice(draw["order"]["items"])
    return {"item": f"the {item['name']} in {item['option']}", "variant": item["variant_id"]}


def _line(draw: Draw) -> dict[str, Any]:
    return {**_oid(draw), "variant_id": draw.extra["variant"]}


def _product(draw: Draw, variant: str) -> Record:
    item = next(i for i in draw["order"]["items"] if i["variant_id"] == variant)
    return draw.world["products"][item["product_id"]]


def _swap(draw: Draw) -> dict[str, Any]:
    found = _item(draw)  # every product has two variants or more
    others = [
        v
        for v in _product(draw, found["variant"])["variants"]
        if v["variant_id"] != found["variant"]
    ]
    return {**found, "option": draw.rng.choice(others)["option"]}


def _exchange(draw: Draw) -> dict[str, Any]:
    variants = _product(draw, draw.extra["variant"])["variants"]
    new = next(v for v in variants if v["option"] == draw.extra["option"])
    return {**_line(draw), "new_variant_id": new["variant_id"]}


def _faster(draw: Draw) -> dict[str, Any]:
    now = rules.SHIPPING[draw["order"]["shipping"]]
    faster = [method for method, fee in rules.SHIPPING.items() if fee > now]
    return {**_oid(draw), "method": draw.rng.choice(faster)}


def _new_address(draw: Draw) -> dict[str, Any]:
    rng, (city, code) = draw.rng, draw.rng.choice(CITIES)
    label = rng.choice(("office", "studio", "gran's house", "cottage", *LABELS))
    street = f"{rng.randint(2, 180)} {rng.choice(STREETS)}"
    return dict(
        customer_id=draw["customer"]["customer_id"], label=label, street=street, city=city, zip=code
    )


def _units(draw: Draw) -> dict[str, Any]:
    variant = draw.rng.choice(draw["product"]["variants"])
    return {
        "quantity": draw.rng.randint(2, 6),
        "option": variant["option"],
        "unit": variant["price"],
    }


def _option_kind(draw: Draw) -> str:
    category = _product(draw, draw.extra["variant"])["category"]
    return "size" if category in ("apparel", "footwear") else "colour"


_SIZES = ("xs", "s", "m", "l", "xl", "xxl")


def _size(option: str) -> float | None:
    """Where a size stands ("M" < "XL", "size 9" < "size 11"); None for no size."""
    word = option.split()[-1].casefold() if option.split() else ""
    if word in _SIZES:
        return float(_SIZES.index(word))
    try:
        return float(word)
    except ValueError:
        return None


def _exchange_motives(draw: Draw) -> tuple[str, ...]:
    """A size swap's reasons are about the size (one that "came up smaller" swaps for a larger
    one), a colour swap's about the colour."""
    if _option_kind(draw) != "size":
        return ("The colour looks different in person.", "My partner prefers the other one.")
    old = _product(draw, draw.extra["variant"])["variants"]
    had = _size(next(v["option"] for v in old if v["variant_id"] == draw.extra["variant"]))
    new = _size(draw.extra["option"])
    if had is None or new is None or had == new:
        return ("The size is wrong.",)
    came = "smaller" if new > had else "bigger"
    return ("The size is wrong.", f"It came up {came} than I expected.")


def _return_motives(draw: Draw) -> tuple[str, ...]:
    """A lamp does not "fit the way I hoped": that reason only for clothes and shoes."""
    kept: tuple[str, ...] = ("It's not what the photos showed.", "I changed my mind about it.")
    kept += ("I got one as a present as well.",)
    return ("It doesn't fit the way I hoped.", *kept) if _option_kind(draw) == "size" else kept


ADDRESS_MOTIVES = {
    "office": ("I want to send things to the office.",),
    "work": ("I want to send things to the office.",),
    "studio": ("I work from the studio most days.",),
    "gran's house": ("I look after my gran's post.",),
    "parents": ("My parents take in my parcels.",),
    "cottage": ("I'm there most weekends.",),
    "holiday flat": ("I'm there most weekends.",),
    "home": ("I've just moved.",),
}
REDIRECT_MOTIVES = {
    "home": ("I'll be home after all that week.", "I'd rather not collect it."),
    "work": ("Nobody is in during the day.",),
    "parents": ("I'm staying with family for a while.", "Nobody is in during the day."),
    "holiday flat": ("I'll be away from home that week.",),
}


def _delivered(draw: Draw) -> bool:
    return draw["order"]["status"] == "delivered"


GOALS = (
    Goal(
        "cancel",
        "cancel_order",
        ("order",),
        _oid,
        words="cancel {order} | call off {order} before it ships | stop {order}",
        done="{order} is cancelled; {refunded} goes back to your {payment}.",
        report=("refunded",),
        check=lambda world, order_id: rules.open_order(world, order_id),
        motives="I ordered it twice by mistake. | I found it cheaper elsewhere. | I no "
        "longer need it. | It was meant to be a gift and the party is off.",
    ),
    Goal(
        "return",
        "return_item",
        ("order",),
        _line,
        extra=_item,
        weight=4,
        words="return {item} from {order} | send back {item} from {order} | get a refund "
        "for {item} from {order}",
        done="The return of {item} from {order} is booked: {refund} goes back to your {refund_to}.",
        report=("refund",),
        before=(("get_return_quote", _line),),
        check=rules.check_return,
        price="restocking_fee",
        motives="It doesn't fit the way I hoped. | It's not what the photos showed. | I "
        "changed my mind about it. | I got one as a present as well.",
        motives_for=_return_motives,
    ),
    Goal(
        "exchange",
        "exchange_item",
        ("order",),
        _exchange,
        extra=_swap,
        words="exchange {item} from {order} for the {option} one | swap {item} from "
        "{order} for {option} | trade {item} from {order} for it in {option}",
        done="I've exchanged {item} from {order} for {option}; the price difference is "
        "{price_difference}.",
        check=rules.check_exchange,
        before=(("find_product", lambda d: {"name": _product(d, d.extra["variant"])["name"]}),),
        motives="The size is wrong. | It came up smaller than I expected. | It came up bigger "
        "than I expected. | The colour "
        "looks different in person. | My partner prefers the other one.",
        motives_for=_exchange_motives,
    ),
    Goal(
        "address",
        "change_shipping_address",
        ("order", "address"),
        lambda d: {**_oid(d), "address_id": d["address"]["address_id"]},
        words="send {order} to {address} instead | have {order} delivered to {address} | "
        "redirect {order} to {address}",
        done="{order} will now be delivered to {address}.",
        check=rules.check_address,
        when=lambda d: d["address"]["address_id"] != d["order"]["address_id"],
        motives=tuple(dict.fromkeys(m for ms in REDIRECT_MOTIVES.values() for m in ms)),
        motives_for=lambda d: REDIRECT_MOTIVES[d["address"]["label"]],
    ),
    Goal(
        "upgrade",
        "upgrade_shipping",
        ("order",),
        _faster,
        words="upgrade {order} to {method} shipping | switch {order} to {method} delivery | "
        "get {order} sent {method}",
        done="{order} now ships {method}, arriving in {arrives_in_days} days; you were charged "
        "{charged}.",
        report=("charged",),
        before=(("get_shipping_quote", lambda d: dict(d.args)),),
        check=rules.shipping_quote,
        price="fee",
        price_noun="upgrade fee",
        motives="I need it before the weekend. | It's for a trip on Friday. | It's a birthday "
        "present.",
    ),
    Goal(
        "new_address",
        "add_address",
        ("customer",),
        _new_address,
        weight=2,
        words="save a new {label} address on my account: {street}, {city} {zip} | add "
        "{street}, {city} {zip} to my account as my {label} address",
        done="I saved {street}, {city} {zip} as address {address_id}.",
        check=rules.check_new_address,
        motives=tuple(dict.fromkeys(m for ms in ADDRESS_MOTIVES.values() for m in ms)),
        motives_for=lambda d: ADDRESS_MOTIVES[d.args["label"]],
    ),
    Goal(
        "redeem",
        "redeem_gift_card",
        ("customer", "gift_card"),
        lambda d: {"customer_id": d["customer"]["customer_id"], "code": d["gift_card"]["code"]},
        words="redeem the gift card {giver} gave me onto my account | put the gift card "
        "from {giver} on my account as store credit | add {giver}'s gift card to my "
        "account | turn the gift card I got from {giver} into store credit",
        extra=lambda d: {"giver": d.rng.choice(GIVERS)},
        done="{added} was added as store credit; your store credit is now {store_credit}.",
        report=("store_credit",),
        check=rules.check_gift_card,
        motives="It was a birthday present. | I'd rather shop later. | It came with a "
        "thank-you note. | I want to use it before I forget.",
    ),
    Goal(
        "damaged",
        "transfer_to_human_agents",
        ("order",),
        lambda d: {"summary": f"Damaged {d.extra['variant']}, order {d['order']['order_id']}"},
        words="report that {item} from {order} arrived damaged | complain that {item} in "
        "{order} came broken",
        done="I'm sorry about {item}. Damage claims go to our claims team, so I have "
        "transferred you to a human agent about {order}, delivered on {order[delivered_on]}.",
        extra=_item,
        when=_delivered,
        weight=2,
        motives="The box was crushed. | It had a crack when I opened it.",
    ),
    Goal(
        "track",
        "track_shipment",
        ("order",),
        _oid,
        words="when {order} will arrive | where {order} is and when it gets here",
        done="{order} is {status} ({tracking}) and should arrive on {delivery_date}.",
        report=("delivery_date",),
        when=lambda d: d["order"]["status"] == "shipped",
        motives="I need to be home for it. | It's been a few days.",
    ),
    Goal(
        "refund",
        "get_return_quote",
        ("order",),
        _line,
        extra=_item,
        when=_delivered,
        weight=2,
        words="how much I'd get back if I returned {item} from {order} | what refund I'd "
        "get for {item} from {order}",
        done="Returning {item} from {order} would refund {refund} to your {refund_to} "
        "(restocking fee {restocking_fee}). I have not started a return.",
        report=("refund",),
        check=rules.check_return,
        motives="I'm thinking about sending it back. | I'm not sure I'll keep it.",
    ),
    Goal(
        "search",
        "search_products",
        (),
        lambda d: {"category": d.rng.choice(list(CATALOGUE)), "max_price": d.rng.choice((40, 90))},
        words="which {category} products you have for {max_price} dollars or less | what "
        "{category} items under {max_price} dollars are in stock",
        done="In {category} at {max_price} dollars or less: {names}.",
        derive=lambda found: {"names": [p["name"] for p in found]},
        weight=2,
        motives="I'm shopping for a present. | I'm on a budget this month.",
    ),
    Goal(
        "cost",
        "calculate",
        ("product",),
        lambda d: {"expression": f"{d.extra['unit']} * {d.extra['quantity']}"},
        words="what {quantity} of the {product} in {option} would cost | how much "
        "{quantity} units of the {product} in {option} come to",
        done="{quantity} of the {product} in {option} come to {result} dollars.",
        extra=_units,
        weight=2,
        motives="I'm buying for the whole team. | We need matching ones for the family.",
    ),
)


class EcommerceDomain(StatefulDomain):
    """An online shop's support desk: ~60 products, 150 customers, ~500 orders, gift cards."""

    name = "ecommerce"
    version = "1.9"
    invariants = INVARIANTS
    identification = Identification("customer", ("email", "customer_id"), records=("order",))
    toolkit = EcommerceTools
    rules = rules
    entities = ENTITIES
    goals = GOALS
    build_world = staticmethod(build_world)
