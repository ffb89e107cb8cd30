"""The tau2 retail tools this bot plays, on the DB as the data file has it.

Behaviour (the repository's Go port documents the same rules in
domains/tau2/retail/doc.go): user ids are matched lower-cased, order ids
upper-cased with a leading "#" added when missing; product and item ids
exactly. Read tools answer with the DB record itself, so the model sees the
data file's key order; write tools change the record in place (new keys
go last, as in a Python dict), record ``{action_type, name, arguments,
result}`` and answer with the changed record. Failures are
``{"status": "error", "error_type": ..., "message": ...}`` values.
Money: every computed balance and price difference is ``round(x, 2)`` of a
float. All 16 tools of the domain are played.
"""

import json

from .base import Tool, db_not_initialized, function_schema, not_found, schema_record, typed, value_error
from .common import find_user

DOMAIN = "tau2_retail"


def _order(db: dict, order_id):
    if not order_id:
        return None
    key = order_id.upper()
    if not key.startswith("#"):
        key = "#" + key
    return (db.get("orders") or {}).get(key)


def _variant(db: dict, product_id, item_id):
    product = (db.get("products") or {}).get(product_id)
    if product is None:
        return None
    return (product.get("variants") or {}).get(item_id)


def _method(user: dict, method_id):
    return (user.get("payment_methods") or {}).get(method_id)


def _r2(x) -> float:
    return round(float(x), 2)


def _too_many(asked: list, order: dict):
    """The first id asked for more often than the order holds it, or None."""
    held = [item.get("item_id") for item in order.get("items") or []]
    for item_id in asked:
        if asked.count(item_id) > held.count(item_id):
            return item_id
    return None


def _record(env, name, p, result):
    env.record({"action_type": name, "name": name, "arguments": p.model_dump(), "result": result})


def _read(rec_name, lookup, message):
    """A tool answering with one record that ``lookup(db, p)`` finds."""

    def build(env):
        rec = schema_record(DOMAIN, rec_name)

        def work(p):
            db = env.db
            if not db:
                return db_not_initialized()
            found = lookup(db, p)
            return not_found(message(p)) if found is None else found

        return Tool(rec["name"], function_schema(rec), typed(rec, work))

    return build


def _find_user_id(match):
    def lookup(db, p):
        for user_id, user in (db.get("users") or {}).items():
            if match(user, p):
                return {"status": "success", "user_id": user_id}
        return None

    return lookup


def _by_name_zip(user, p):
    name, address = user.get("name") or {}, user.get("address") or {}
    return ((name.get("first_name") or "").lower() == p.first_name.lower()
            and (name.get("last_name") or "").lower() == p.last_name.lower()
            and (address.get("zip") or "") == p.zip)


def _by_email(user, p):
    return (user.get("email") or "").lower() == p.email.lower()


def _item(db, p):
    if not p.item_id:
        return None
    for product in (db.get("products") or {}).values():
        variants = product.get("variants") or {}
        if p.item_id in variants:
            return variants[p.item_id]
    return None


def _product_types(db, p):
    names = {product.get("name"): product.get("product_id") for product in (db.get("products") or {}).values()}
    return {"status": "success", "product_types": json.dumps(names, sort_keys=True)}


def _write(rec_name, work_on):
    """A write tool: ``work_on(env, db, p)`` checks, changes, records."""

    def build(env):
        rec = schema_record(DOMAIN, rec_name)

        def work(p):
            db = env.db
            if not db:
                return db_not_initialized()
            return work_on(env, db, p)

        return Tool(rec["name"], function_schema(rec), typed(rec, work))

    return build


def _cancel(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if order.get("status") != "pending":
        return value_error("Non-pending order cannot be cancelled")
    if p.reason not in ("no longer needed", "ordered by mistake"):
        return value_error("Invalid reason")
    user = find_user(db, order.get("user_id"))
    if user is None:
        return not_found("User not found")
    refunds = []
    for payment in order.get("payment_history") or []:
        amount = payment.get("amount", 0)
        method_id = payment.get("payment_method_id")
        refunds.append({"transaction_type": "refund", "amount": amount, "payment_method_id": method_id})
        method = _method(user, method_id)
        if method is not None and method.get("source") == "gift_card":
            method["balance"] = _r2((method.get("balance") or 0) + amount)
    order["status"] = "cancelled"
    order["cancel_reason"] = p.reason
    order.setdefault("payment_history", []).extend(refunds)
    _record(env, "cancel_pending_order", p, {"order_id": p.order_id, "status": "cancelled"})
    return order


def _price_difference(db, order, p, same_item_message=None):
    """Checks each (old, new) pair; returns (difference, variants) or an error."""
    difference, variants = 0.0, []
    for old, new in zip(p.item_ids, p.new_item_ids):
        if same_item_message is not None and old == new:
            return value_error(same_item_message), None
        item = next((i for i in order.get("items") or [] if i.get("item_id") == old), None)
        if item is None:
            return value_error(f"Item {old} not found"), None
        variant = _variant(db, item.get("product_id"), new)
        if variant is None or not variant.get("available", False):
            return value_error(f"New item {new} not found or available"), None
        variants.append(variant)
        difference += float(variant.get("price", 0)) - float(item.get("price", 0))
    return _r2(difference), variants


def _payer(db, order, method_id, difference, short_message):
    """The user's payment method for a price difference, or an error."""
    user = find_user(db, order.get("user_id"))
    if user is None:
        return None, not_found("User not found")
    method = _method(user, method_id)
    if method is None:
        return None, not_found("Payment method not found")
    if method.get("source") == "gift_card" and (method.get("balance") or 0) < difference:
        return None, value_error(short_message)
    return method, None


def _exchange(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if order.get("status") != "delivered":
        return value_error("Non-delivered order cannot be exchanged")
    missing = _too_many(p.item_ids, order)
    if missing is not None:
        return value_error(f"Number of {missing} not found.")
    if len(p.item_ids) != len(p.new_item_ids):
        return value_error("The number of items to be exchanged should match.")
    difference, _ = _price_difference(db, order, p)
    if isinstance(difference, dict):
        return difference
    _, failure = _payer(db, order, p.payment_method_id, difference,
                        "Insufficient gift card balance to pay for the price difference")
    if failure:
        return failure
    order["status"] = "exchange requested"
    order["exchange_items"] = sorted(p.item_ids)
    order["exchange_new_items"] = sorted(p.new_item_ids)
    order["exchange_payment_method_id"] = p.payment_method_id
    order["exchange_price_difference"] = difference
    _record(env, "exchange_delivered_order_items", p,
            {"order_id": p.order_id, "status": "exchange requested", "price_difference": difference})
    return order


def _modify_items(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if order.get("status") != "pending":
        return value_error("Non-pending order cannot be modified")
    missing = _too_many(p.item_ids, order)
    if missing is not None:
        return value_error(f"{missing} not found")
    if len(p.item_ids) != len(p.new_item_ids):
        return value_error("The number of items to be exchanged should match")
    difference, variants = _price_difference(db, order, p, "The new item id should be different from the old item id")
    if isinstance(difference, dict):
        return difference
    method, failure = _payer(db, order, p.payment_method_id, difference,
                             "Insufficient gift card balance to pay for the new item")
    if failure:
        return failure
    order.setdefault("payment_history", []).append({
        "transaction_type": "payment" if difference > 0 else "refund",
        "amount": abs(difference),
        "payment_method_id": p.payment_method_id,
    })
    if method.get("source") == "gift_card":
        method["balance"] = _r2((method.get("balance") or 0) - difference)
    for old, new, variant in zip(p.item_ids, p.new_item_ids, variants):
        for item in order.get("items") or []:
            if item.get("item_id") == old:
                item["item_id"] = new
                item["price"] = variant.get("price")
                item["options"] = variant.get("options")
                break
    order["status"] = "pending (item modified)"
    _record(env, "modify_pending_order_items", p, {"order_id": p.order_id, "price_difference": difference})
    return order


def _address(p) -> dict:
    return {"address1": p.address1, "address2": p.address2, "city": p.city,
            "state": p.state, "country": p.country, "zip": p.zip}


def _modify_order_address(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if "pending" not in (order.get("status") or ""):
        return value_error("Non-pending order cannot be modified")
    order["address"] = _address(p)
    _record(env, "modify_pending_order_address", p, {"order_id": p.order_id})
    return order


def _modify_payment(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if "pending" not in (order.get("status") or ""):
        return value_error("Non-pending order cannot be modified")
    user = find_user(db, order.get("user_id"))
    if user is None:
        return not_found("User not found")
    new = _method(user, p.payment_method_id)
    if new is None:
        return not_found("Payment method not found")
    history = order.get("payment_history") or []
    if len(history) != 1 or history[0].get("transaction_type") != "payment":
        return value_error("There should be exactly one payment for a pending order")
    old_id = history[0].get("payment_method_id")
    if old_id == p.payment_method_id:
        return value_error("The new payment method should be different from the current one")
    amount = history[0].get("amount", 0)
    if new.get("source") == "gift_card" and (new.get("balance") or 0) < amount:
        return value_error("Insufficient gift card balance to pay for the order")
    order["payment_history"] = history + [
        {"transaction_type": "payment", "amount": amount, "payment_method_id": p.payment_method_id},
        {"transaction_type": "refund", "amount": amount, "payment_method_id": old_id},
    ]
    if new.get("source") == "gift_card":
        new["balance"] = _r2((new.get("balance") or 0) - amount)
    old = _method(user, old_id)
    if old is not None and old.get("source") == "gift_card":
        old["balance"] = _r2((old.get("balance") or 0) + amount)
    _record(env, "modify_pending_order_payment", p, {"order_id": p.order_id})
    return order


def _modify_user_address(env, db, p):
    user = find_user(db, p.user_id)
    if user is None:
        return not_found(f"User {p.user_id} not found")
    user["address"] = _address(p)
    _record(env, "modify_user_address", p, {"user_id": p.user_id})
    return user


def _return(env, db, p):
    order = _order(db, p.order_id)
    if order is None:
        return not_found(f"Order {p.order_id} not found")
    if order.get("status") != "delivered":
        return value_error("Non-delivered order cannot be returned")
    user = find_user(db, order.get("user_id"))
    if user is None:
        return not_found("User not found")
    method = _method(user, p.payment_method_id)
    if method is None:
        return not_found("Payment method not found")
    original = ((order.get("payment_history") or [{}])[0]).get("payment_method_id")
    if method.get("source") != "gift_card" and p.payment_method_id != original:
        return value_error("Payment method should be the original payment method")
    if _too_many(p.item_ids, order) is not None:
        return value_error("Some item not found")
    order["status"] = "return requested"
    order["return_items"] = sorted(p.item_ids)
    order["return_payment_method_id"] = p.payment_method_id
    _record(env, "return_delivered_order_items", p, {"order_id": p.order_id, "status": "return requested"})
    return order


TOOLS = {
    "FindUserIdByNameZipTool": _read("FindUserIdByNameZipTool", _find_user_id(_by_name_zip),
                                     lambda p: "User not found"),
    "FindUserIdByEmailTool": _read("FindUserIdByEmailTool", _find_user_id(_by_email),
                                   lambda p: "User not found"),
    "GetOrderDetailsTool": _read("GetOrderDetailsTool", lambda db, p: _order(db, p.order_id),
                                 lambda p: f"Order {p.order_id} not found"),
    "GetProductDetailsTool": _read("GetProductDetailsTool",
                                   lambda db, p: (db.get("products") or {}).get(p.product_id),
                                   lambda p: f"Product {p.product_id} not found"),
    "GetItemDetailsTool": _read("GetItemDetailsTool", _item, lambda p: f"Item {p.item_id} not found"),
    "ListAllProductTypesTool": _read("ListAllProductTypesTool", _product_types, lambda p: ""),
    "CancelPendingOrderTool": _write("CancelPendingOrderTool", _cancel),
    "ExchangeDeliveredOrderItemsTool": _write("ExchangeDeliveredOrderItemsTool", _exchange),
    "ModifyPendingOrderItemsTool": _write("ModifyPendingOrderItemsTool", _modify_items),
    "ModifyPendingOrderAddressTool": _write("ModifyPendingOrderAddressTool", _modify_order_address),
    "ModifyPendingOrderPaymentTool": _write("ModifyPendingOrderPaymentTool", _modify_payment),
    "ModifyUserAddressTool": _write("ModifyUserAddressTool", _modify_user_address),
    "ReturnDeliveredOrderItemsTool": _write("ReturnDeliveredOrderItemsTool", _return),
}
