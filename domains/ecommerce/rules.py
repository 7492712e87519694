"""The shop's support policy as code: constants (policy.md is rendered from them), one error per
rule, and the pure checks that the tools and the composer share."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from toolscale.core.contract import ToolError
from toolscale.kit import lookup, rule
from toolscale.tools.bounds import text

TODAY = "2025-09-15"
RETURN_WINDOW_DAYS = 30
RESTOCK_CATEGORY = "electronics"
RESTOCK_PERCENT = 15
REVIEW_OVER = 400.0  # refunds above this go to the returns team (a human agent)
MAX_ADDRESSES = 4
SHIPPING = {"standard": 0.0, "express": 9.5, "overnight": 24.0}
ARRIVES_IN = {"standard": 5, "express": 2, "overnight": 1}
TIERS = ("regular", "plus")
FREE_EXPRESS_TIER = "plus"  # plus members upgrade to express for free

Record = dict[str, Any]


AlreadyShipped = rule("AlreadyShipped")
OrderCancelled = rule("OrderCancelled")
NotDelivered = rule("NotDelivered")
ReturnWindowClosed = rule("ReturnWindowClosed")
FinalSale = rule("FinalSale")
AlreadyReturned = rule("AlreadyReturned")
LargeRefund = rule("LargeRefund", handoff=True)
OutOfStock = rule("OutOfStock")
TooManyAddresses = rule("TooManyAddresses")
CardExpired = rule("CardExpired")
CardRedeemed = rule("CardRedeemed")


def shift(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def open_order(state: Record, order_id: str) -> Record:
    """The order, when it has not left the warehouse (it can still be cancelled or changed)."""
    order = lookup(state, "orders", order_id, "order")
    status = order["status"]
    OrderCancelled.raise_if(
        status == "cancelled", f"order {order['order_id']} is cancelled", "cancelled"
    )
    AlreadyShipped.raise_if(
        status not in ("processing", "cancelled"),  # a cancelled one broke the rule above
        f"order {order['order_id']} has already been {status} and can no longer change",
        status,
    )
    return order


def item_of(state: Record, order_id: str, variant_id: str) -> tuple[Record, Record]:
    order = lookup(state, "orders", order_id, "order")
    wanted = text(variant_id, "variant_id", max_chars=40).strip()
    for item in order["items"]:
        if item["variant_id"] == wanted:
            return order, item
    raise ToolError(f"order {order['order_id']} holds no item with variant id {wanted!r}")


def returnable(state: Record, order_id: str, variant_id: str) -> tuple[Record, Record]:
    """The order and item, when the item may be returned or exchanged today."""
    order, item = item_of(state, order_id, variant_id)
    NotDelivered.raise_if(
        order["status"] != "delivered",
        f"only delivered items can be returned or exchanged, and order {order['order_id']} is "
        f"{order['status']}",
        order["status"],
    )
    delivered = order["delivered_on"]  # none yet on an order the rule above refused
    today = date.fromisoformat(state["today"])
    days = (today - date.fromisoformat(delivered)).days if delivered else 0
    ReturnWindowClosed.raise_if(
        days > RETURN_WINDOW_DAYS,
        f"items can be returned within {RETURN_WINDOW_DAYS} days of delivery, and order "
        f"{order['order_id']} was delivered on {delivered}",
        delivered,
    )
    AlreadyReturned.raise_if(
        item["status"] != "ok",
        f"the {item['name']} of order {order['order_id']} was already {item['status']}",
        item["status"],
    )
    FinalSale.raise_if(
        state["products"][item["product_id"]]["final_sale"],
        f"the {item['name']} was bought as final sale and cannot be returned or exchanged",
        item["product_id"],
    )
    return order, item


def return_quote(state: Record, order_id: str, variant_id: str) -> Record:
    order, item = item_of(state, order_id, variant_id)
    value = round(item["price"] * item["quantity"], 2)
    restock = state["products"][item["product_id"]]["category"] == RESTOCK_CATEGORY
    fee = round(value * RESTOCK_PERCENT / 100, 2) if restock else 0.0
    return {
        "order_id": order["order_id"],
        "variant_id": item["variant_id"],
        "item_value": value,
        "restocking_fee": fee,
        "refund": round(value - fee, 2),
        "refund_to": order["payment"],
    }


def check_return(state: Record, order_id: str, variant_id: str) -> Record:
    returnable(state, order_id, variant_id)
    quote = return_quote(state, order_id, variant_id)
    LargeRefund.raise_if(
        quote["refund"] > REVIEW_OVER,
        f"refunds over ${REVIEW_OVER:.2f} are approved by our returns team, and this one "
        f"is ${quote['refund']:.2f}",
        quote["item_value"],
    )
    return quote


def check_exchange(state: Record, order_id: str, variant_id: str, new_variant_id: str) -> Record:
    _, item = returnable(state, order_id, variant_id)
    wanted = text(new_variant_id, "new_variant_id", max_chars=40).strip()
    product = state["products"][item["product_id"]]
    for variant in product["variants"]:
        if variant["variant_id"] == wanted and wanted != item["variant_id"]:
            OutOfStock.raise_if(
                variant["stock"] < item["quantity"],
                f"the {product['name']} in {variant['option']} is out of stock",
            )
            return variant
    raise ToolError(f"{wanted!r} is not another variant of the {product['name']}")


def shipping_quote(state: Record, order_id: str, method: str) -> Record:
    order = open_order(state, order_id)
    method = text(method, "method", max_chars=20).strip().lower()
    if method not in SHIPPING or SHIPPING[method] <= SHIPPING[order["shipping"]]:
        faster = [m for m in SHIPPING if SHIPPING[m] > SHIPPING[order["shipping"]]]
        raise ToolError(f"order {order['order_id']} can be upgraded to: {', '.join(faster)}")
    customer = state["customers"][order["customer_id"]]
    free = method == "express" and customer["tier"] == FREE_EXPRESS_TIER
    fee = 0.0 if free else SHIPPING[method] - SHIPPING[order["shipping"]]
    days = ARRIVES_IN[method]
    return {"order_id": order["order_id"], "method": method, "fee": fee, "arrives_in_days": days}


def check_address(state: Record, order_id: str, address_id: str) -> Record:
    order = open_order(state, order_id)
    address = lookup(state, "addresses", address_id, "address")
    if address["customer_id"] != order["customer_id"]:
        raise ToolError(f"address {address['address_id']} belongs to another customer")
    return address


def check_new_address(state: Record, customer_id: str, **_: str) -> None:
    customer = lookup(state, "customers", customer_id, "customer")
    mine = [a for a in state["addresses"].values() if a["customer_id"] == customer_id.strip()]
    TooManyAddresses.raise_if(
        len(mine) >= MAX_ADDRESSES,
        f"a customer keeps at most {MAX_ADDRESSES} addresses, and {customer['name']} has "
        f"{len(mine)}: " + "; ".join(a["street"] for a in mine),
        *(a["address_id"] for a in mine),
    )


def check_gift_card(state: Record, customer_id: str, code: str) -> Record:
    lookup(state, "customers", customer_id, "customer")
    card = lookup(state, "gift_cards", code, "gift card")
    CardRedeemed.raise_if(
        bool(card["redeemed_on"]),
        f"gift card {card['code']} was already redeemed on {card['redeemed_on']}",
        card["redeemed_on"],
    )
    CardExpired.raise_if(
        card["expires_on"] < state["today"],
        f"gift card {card['code']} expired on {card['expires_on']}",
        card["expires_on"],
    )
    return card
