"""The shop's support tools: find customers, orders, products and gift cards; cancel, return,
exchange, re-address and upgrade orders; add addresses, redeem gift cards. Every rule is checked
by `rules` (the same checks the composer draws tasks with)."""

from __future__ import annotations

from typing import Any, ClassVar

from domains.ecommerce import rules
from toolscale.core.contract import ToolKind, tool
from toolscale.kit import find_by, finds, lists, lookup, raises
from toolscale.tools.bounds import number, text
from toolscale.tools.generic import StatefulGenericTools

Record = dict[str, Any]
ORDER_ERRORS = (rules.AlreadyShipped, rules.OrderCancelled)
RETURN_ERRORS = (rules.NotDelivered, rules.ReturnWindowClosed, rules.AlreadyReturned)


class EcommerceTools(StatefulGenericTools):
    """Tools over one task's shop database (`self.state`). Outputs are JSON values."""

    param_docs: ClassVar[dict[str, str]] = {
        "customer_id": 'The customer id, such as "K1234".',
        "order_id": 'The order id, such as "O123456".',
        "variant_id": 'The variant id of the item, such as "V12345".',
        "method": '"express" or "overnight".',
    }

    def _credit(self, order: Record, amount: float) -> None:
        order["refunded"] = round(order["refunded"] + amount, 2)
        if order["payment"] == "store credit":
            customer = self.state["customers"][order["customer_id"]]
            customer["store_credit"] = round(customer["store_credit"] + amount, 2)

    @tool(ToolKind.READ)
    @finds("customer", by="customer_id")
    def get_customer(self, customer_id: str) -> Record:
        """Get a customer's account: name, email, phone, membership tier (regular or plus) and
        the store credit that refunds of store-credit orders go to.
        """
        return lookup(self.state, "customers", customer_id, "customer")

    @tool(ToolKind.READ)
    @finds("customer", by="email")
    def find_customer_by_email(self, email: str) -> Record:
        """Find a customer's account by email address.

        Args:
            email: The email address on the account.
        """
        return find_by(self.state, "customers", "email", email, "customer")

    @tool(ToolKind.READ)
    @lists("order", of="customer")
    def list_customer_orders(self, customer_id: str) -> list[Record]:
        """List a customer's orders, newest first, each with its date, status, items (product,
        variant, option, quantity, unit price, item status) and delivery date.
        """
        customer = lookup(self.state, "customers", customer_id, "customer")
        mine = [
            o for o in self.state["orders"].values() if o["customer_id"] == customer["customer_id"]
        ]
        return sorted(mine, key=lambda o: o["placed_on"], reverse=True)

    @tool(ToolKind.READ)
    @finds("order", by="order_id")
    def get_order(self, order_id: str) -> Record:
        """Get an order: date, status, items, shipping address id, shipping method, payment
        method, delivery date and the amount refunded so far.
        """
        return lookup(self.state, "orders", order_id, "order")

    @tool(ToolKind.READ)
    @lists("address", of="customer")
    def list_addresses(self, customer_id: str) -> list[Record]:
        """List the shipping addresses saved on a customer's account."""
        customer = lookup(self.state, "customers", customer_id, "customer")
        return [
            a
            for a in self.state["addresses"].values()
            if a["customer_id"] == customer["customer_id"]
        ]

    @tool(ToolKind.READ)
    @finds("product", by="name")
    def find_product(self, name: str) -> Record:
        """Find a product by its name: category, whether it is final sale, and its variants
        (variant id, option, price in dollars, units in stock).

        Args:
            name: The product's name, such as "Trail Runner".
        """
        return find_by(self.state, "products", "name", name, "product")

    @tool(ToolKind.READ)
    def search_products(self, category: str, max_price: float) -> list[Record]:
        """List the products of a category with a variant in stock at or under a price.

        Args:
            category: One of apparel, footwear, electronics, home, outdoor.
            max_price: The highest price in dollars.
        """
        category = text(category, "category", max_chars=40).strip().lower()
        number(max_price, "max_price", low=0, high=100_000)
        return [
            {"product_id": p["product_id"], "name": p["name"], "from_price": min(prices)}
            for p in self.state["products"].values()
            if p["category"] == category
            and (prices := [v["price"] for v in p["variants"] if v["stock"] > 0])
            and min(prices) <= max_price
        ]

    @tool(ToolKind.READ)
    @finds("gift_card", by="code")
    def get_gift_card(self, code: str) -> Record:
        """Get a gift card by its code: balance, expiry date and when it was redeemed, if ever.

        Args:
            code: The code printed on the card, such as "GC-12345678".
        """
        return lookup(self.state, "gift_cards", code, "gift card")

    @tool(ToolKind.READ)
    def track_shipment(self, order_id: str) -> Record:
        """Track an order's parcel: status, carrier and tracking number, and the expected or
        actual delivery date.
        """
        order = lookup(self.state, "orders", order_id, "order")
        days = rules.ARRIVES_IN[order["shipping"]]
        expected = order["delivered_on"] or rules.shift(order["placed_on"], days + 1)
        if order["status"] == "shipped":  # a parcel on its way arrives today at the earliest
            expected = max(expected, self.state["today"])
        return {"order_id": order["order_id"], "status": order["status"]} | {
            "tracking": order["tracking"],
            "delivery_date": expected if order["status"] != "cancelled" else "",
        }

    @tool(ToolKind.READ)
    def get_return_quote(self, order_id: str, variant_id: str) -> Record:
        """Quote returning one item of an order: its value, the restocking fee, the refund and
        where the refund goes. Changes nothing and does not check eligibility.
        """
        return rules.return_quote(self.state, order_id, variant_id)

    @tool(ToolKind.READ)
    def get_shipping_quote(self, order_id: str, method: str) -> Record:
        """Quote upgrading an order that has not shipped to a faster method: the fee and the
        days to delivery. Changes nothing.
        """
        return rules.shipping_quote(self.state, order_id, method)

    @tool(ToolKind.WRITE)
    @raises(*ORDER_ERRORS)
    def cancel_order(self, order_id: str) -> Record:
        """Cancel an order that has not shipped; everything paid is refunded to the payment
        method. Returns the order.
        """
        order = rules.open_order(self.state, order_id)
        total = sum(i["price"] * i["quantity"] for i in order["items"])
        self._credit(order, round(total + rules.SHIPPING[order["shipping"]], 2))
        order["status"] = "cancelled"
        return order

    @tool(ToolKind.WRITE)
    @raises(*RETURN_ERRORS, rules.FinalSale, rules.LargeRefund)
    def return_item(self, order_id: str, variant_id: str) -> Record:
        """Return one delivered item: refunds its value less any restocking fee (the amounts of
        get_return_quote) to the order's payment method.
        """
        quote = rules.check_return(self.state, order_id, variant_id)
        order, item = rules.item_of(self.state, order_id, variant_id)
        item["status"] = "returned"
        self._credit(order, quote["refund"])
        return {**quote, "item_status": "returned"}  # the item's: the order stays delivered

    @tool(ToolKind.WRITE)
    @raises(*RETURN_ERRORS, rules.FinalSale, rules.OutOfStock)
    def exchange_item(self, order_id: str, variant_id: str, new_variant_id: str) -> Record:
        """Exchange a delivered item for another variant (size, colour) of the same product; a
        price difference is charged or refunded. Returns the new item and the difference.

        Args:
            variant_id: The variant id of the item being sent back, such as "V12345".
            new_variant_id: The variant id wanted instead, such as "V67890".
        """
        variant = rules.check_exchange(self.state, order_id, variant_id, new_variant_id)
        order, item = rules.item_of(self.state, order_id, variant_id)
        difference = round((variant["price"] - item["price"]) * item["quantity"], 2)
        item["status"] = "exchanged"
        variant["stock"] -= item["quantity"]
        new = {**item, "variant_id": variant["variant_id"], "option": variant["option"]}
        order["items"].append({**new, "price": variant["price"], "status": "ok"})
        return {"order_id": order["order_id"], "new_item": order["items"][-1]} | {
            "price_difference": difference
        }

    @tool(ToolKind.WRITE)
    @raises(*ORDER_ERRORS)
    def change_shipping_address(self, order_id: str, address_id: str) -> Record:
        """Send an order that has not shipped to another of the customer's saved addresses.

        Args:
            address_id: The saved address id, such as "AD1234".
        """
        address = rules.check_address(self.state, order_id, address_id)
        order = self.state["orders"][order_id.strip()]
        order["address_id"] = address["address_id"]
        return {"order_id": order["order_id"], "ships_to": address}

    @tool(ToolKind.WRITE)
    @raises(*ORDER_ERRORS)
    def upgrade_shipping(self, order_id: str, method: str) -> Record:
        """Upgrade an order that has not shipped to a faster method, charging the fee of
        get_shipping_quote to the card on file.
        """
        quote = rules.shipping_quote(self.state, order_id, method)
        self.state["orders"][quote["order_id"]]["shipping"] = quote["method"]
        return {**quote, "charged": quote["fee"]}

    @tool(ToolKind.WRITE)
    @raises(rules.TooManyAddresses)
    def add_address(self, customer_id: str, label: str, street: str, city: str, zip: str) -> Record:
        """Save a new shipping address on a customer's account. Returns it with its id.

        Args:
            label: A name for the address, such as "office".
            street: House number and street.
            city: The city.
            zip: The postal code.
        """
        rules.check_new_address(self.state, customer_id)
        fields = {"label": label, "street": street, "city": city, "zip": zip}
        address = {k: text(v, k, max_chars=80).strip() for k, v in fields.items()}
        aid = f"AD{self.state['next_address']}"
        self.state["next_address"] += 1
        address = {"address_id": aid, "customer_id": customer_id.strip(), **address}
        self.state["addresses"][aid] = address
        return address

    @tool(ToolKind.WRITE)
    @raises(rules.CardRedeemed, rules.CardExpired)
    def redeem_gift_card(self, customer_id: str, code: str) -> Record:
        """Redeem a gift card: its whole balance becomes store credit on the customer's account.

        Args:
            code: The gift card code, such as "GC-12345678".
        """
        card = rules.check_gift_card(self.state, customer_id, code)
        customer = self.state["customers"][customer_id.strip()]
        customer["store_credit"] = round(customer["store_credit"] + card["balance"], 2)
        added, card["balance"], card["redeemed_on"] = card["balance"], 0.0, self.state["today"]
        return {"code": card["code"], "added": added, "store_credit": customer["store_credit"]}
