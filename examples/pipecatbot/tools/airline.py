"""The tau2 airline tools this bot plays, on the DB as the data files have it.

Behaviour (the repository's Go port documents the same rules in
domains/tau2/airline/doc.go): user ids are matched lower-cased,
reservation ids and flight numbers upper-cased. Read tools answer with the
DB record itself (the data file's key order); search_direct_flight walks
the flights in the file's order. Write tools change the reservation in
place, record ``{action_type, name, arguments, result}`` and answer with
it. Payments for an update: a certificate cannot pay, a gift card needs
its ``amount`` to cover the price (and is charged), a zero price records
no payment.

Not played (answered "not implemented by this bot"): list_all_airports,
search_onestop_flight, get_flight_status, book_reservation,
send_certificate, update_reservation_flights.
"""

from .base import Tool, db_not_initialized, function_schema, not_found, schema_record, typed, value_error
from .common import find_user

DOMAIN = "tau2_airline"


def _reservation(db: dict, reservation_id):
    key = reservation_id.upper() if reservation_id else reservation_id
    return (db.get("reservations") or {}).get(key)


def _tool(rec_name, work_on):
    """A tool whose ``work_on(env, db, p)`` runs once a DB is loaded."""

    def build(env):
        rec = schema_record(DOMAIN, rec_name)

        def work(p):
            db = env.db
            if not db:
                return db_not_initialized()
            return work_on(env, db, p)

        return Tool(rec["name"], function_schema(rec), typed(rec, work))

    return build


def _record(env, name, p, result):
    env.record({"action_type": name, "name": name, "arguments": p.model_dump(), "result": result})


def _get_reservation(env, db, p):
    found = _reservation(db, p.reservation_id)
    return not_found(f"Reservation {p.reservation_id} not found") if found is None else found


def _search_direct(env, db, p):
    flights = []
    for flight in (db.get("flights") or {}).values():
        dates = flight.get("dates") or {}
        if flight.get("origin") != p.origin or flight.get("destination") != p.destination:
            continue
        if p.date not in dates or dates[p.date].get("status") != "available":
            continue
        day = dates[p.date]
        flights.append({
            "flight_number": flight.get("flight_number"),
            "origin": flight.get("origin"),
            "destination": flight.get("destination"),
            "status": "available",
            "scheduled_departure_time_est": flight.get("scheduled_departure_time_est"),
            "scheduled_arrival_time_est": flight.get("scheduled_arrival_time_est"),
            "available_seats": day.get("available_seats"),
            "prices": day.get("prices"),
        })
    return {"status": "success", "flights": flights}


def _cancel(env, db, p):
    reservation = _reservation(db, p.reservation_id)
    if reservation is None:
        return not_found(f"Reservation {p.reservation_id} not found")
    refunds = [{"payment_id": pay.get("payment_id"), "amount": -pay.get("amount", 0)}
               for pay in reservation.get("payment_history") or []]
    reservation.setdefault("payment_history", []).extend(refunds)
    reservation["status"] = "cancelled"  # seats are not released: tau2 does not
    _record(env, "cancel_reservation", p, {"reservation_id": p.reservation_id, "status": "cancelled"})
    return reservation


def _pay(user: dict, payment_id, price):
    """The payment record for an update (None for a zero price), or an error."""
    methods = user.get("payment_methods") or {}
    if payment_id not in methods:
        return None, value_error("Payment method not found")
    method = methods[payment_id]
    if method.get("source") == "certificate":
        return None, value_error("Certificate cannot be used to update reservation")
    if method.get("source") == "gift_card":
        if method.get("amount", 0) < price:
            return None, value_error("Gift card balance is not enough")
        method["amount"] -= price
    return ({"payment_id": payment_id, "amount": price} if price != 0 else None), None


def _baggages(env, db, p):
    reservation = _reservation(db, p.reservation_id)
    if reservation is None:
        return not_found(f"Reservation {p.reservation_id} not found")
    user = find_user(db, reservation.get("user_id"))
    if user is None:
        return not_found(f"User {reservation.get('user_id')} not found")
    price = 50 * max(0, p.nonfree_baggages - reservation.get("nonfree_baggages", 0))
    payment, failure = _pay(user, p.payment_id, price)
    if failure:
        return failure
    if payment is not None:
        reservation.setdefault("payment_history", []).append(payment)
    reservation["total_baggages"] = p.total_baggages
    reservation["nonfree_baggages"] = p.nonfree_baggages
    _record(env, "update_reservation_baggages", p, {"reservation_id": p.reservation_id, "charged": price})
    return reservation


def _passengers(env, db, p):
    reservation = _reservation(db, p.reservation_id)
    if reservation is None:
        return not_found(f"Reservation {p.reservation_id} not found")
    if len(p.passengers) != len(reservation.get("passengers") or []):
        return value_error("Number of passengers does not match")
    reservation["passengers"] = [passenger.model_dump() for passenger in p.passengers]
    _record(env, "update_reservation_passengers", p, {"reservation_id": p.reservation_id})
    return reservation


TOOLS = {
    "GetReservationDetailsTool": _tool("GetReservationDetailsTool", _get_reservation),
    "SearchDirectFlightTool": _tool("SearchDirectFlightTool", _search_direct),
    "CancelReservationTool": _tool("CancelReservationTool", _cancel),
    "UpdateReservationBaggagesTool": _tool("UpdateReservationBaggagesTool", _baggages),
    "UpdateReservationPassengersTool": _tool("UpdateReservationPassengersTool", _passengers),
}
