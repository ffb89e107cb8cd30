"""The canonical DB hash the evaluation scores with, in Python.

Written from the definition in the repository's own docs (dbhash/doc.go,
README "DB hashing"), and checked against the conformance vectors that the
Python original produced (tests/test_dbhash.py):

- drop the top-level keys in ``excluded`` (default ``session``), only when
  the value is a dict;
- normalise: a finite whole float becomes an int (1.0 -> 1, -0.0 -> 0); a
  string whose ``strip().lower()`` is "none" or "null" becomes None (dict
  keys are left alone); a list under one of the order-independent field
  names, at any depth, is sorted (stably) by each normalised item's
  ``json.dumps(item, sort_keys=True, default=str)``;
- write ``json.dumps(sort_keys=True, separators=(",", ":"), default=str)``
  (ASCII only) and return the SHA-256 hex digest of its UTF-8 bytes.
"""

import hashlib
import json
import math

EXCLUDED_KEYS = frozenset({"session"})
ORDER_INDEPENDENT_FIELDS = frozenset(
    {"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries"}
)


def normalize(value, order_independent=ORDER_INDEPENDENT_FIELDS):
    """Return the normalised copy of a JSON value (the input is not changed)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return int(value)
        return value
    if isinstance(value, str):
        return None if value.strip().lower() in ("none", "null") else value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = normalize(item, order_independent)
            if key in order_independent and isinstance(item, list):
                item = sorted(item, key=lambda x: json.dumps(x, sort_keys=True, default=str))
            out[key] = item
        return out
    if isinstance(value, (list, tuple)):
        return [normalize(item, order_independent) for item in value]
    return value


def canonical(value, excluded=EXCLUDED_KEYS, order_independent=ORDER_INDEPENDENT_FIELDS) -> str:
    """The exact text that is hashed."""
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in excluded}
    return json.dumps(normalize(value, order_independent), sort_keys=True, separators=(",", ":"), default=str)


def get_dict_hash(value, excluded=EXCLUDED_KEYS, order_independent=ORDER_INDEPENDENT_FIELDS) -> str:
    """SHA-256 hex of ``canonical(value)``: what get_scenario_summary reports as db_hash."""
    return hashlib.sha256(canonical(value, excluded, order_independent).encode("utf-8")).hexdigest()
