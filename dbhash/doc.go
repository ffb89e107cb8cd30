// Package dbhash computes the canonical hash of a scenario DB and the
// structured difference between two DBs, byte-identical to the Python
// original (NeMo labs-Voice-Agent's get_dict_hash and compute_db_diff), so
// either side of an evaluation can compute them.
//
// # The hash
//
// [Hash] returns the lowercase hex SHA-256 of [Canonical]'s bytes, which
// are, exactly:
//
//   - the value with its top-level excluded keys dropped (default
//     "session"; only when the value is an object, only at the top level);
//   - normalised ([Normalize]): a finite whole float becomes the exact
//     integer (1.0 is 1, -0.0 is 0, 1e23 is 99999999999999991611392); a
//     string whose Python strip() (Python's whitespace set, including
//     \x1c-\x1f, \x85 and \xa0) and lower() give "none" or "null" becomes
//     null (object keys are never touched); lists under the
//     order-independent field names (default standby_list, notifications,
//     bookings, system_accounts, group_memberships, asset_recoveries; at
//     any depth) are sorted stably by their items' json.dumps text with
//     Python's default ", " and ": " separators;
//   - written as json.dumps(sort_keys=True, separators=(",", ":")): keys
//     sorted by code point, ASCII only (\uXXXX with lowercase hex,
//     surrogate pairs above U+FFFF, DEL escaped, "<", ">", "&" and "/" not
//     escaped), floats in Python's repr ("0.1", "1e-05", "1.5e+16"),
//     integers of any size, no trailing newline.
//
// Values are the JSON tree types: map[string]any, []any, string, bool,
// nil, float64, float32, json.Number and Go integers (and *big.Int). Any
// other type, and a string that is not UTF-8, is an error wrapping
// [ErrUnsupported] — there is no silent fmt fallback where Python would
// call str(). Nesting deeper than [MaxDepth] is an error wrapping
// [ErrTooDeep], never a stack overflow; text that does not parse wraps
// [ErrInvalidJSON].
//
// Large objects are hashed on several goroutines; the bytes hashed are the
// same as on one.
//
// # Inputs Python accepts and strict JSON does not
//
// The policy is parity: whatever Python's json.loads accepts, [HashJSON]
// and [Decode] accept and hash to Python's digest.
//
//   - NaN, Infinity and -Infinity literals decode to float64 values and are
//     written bare, as Python writes them. A float that overflows (1e400)
//     decodes to ±Inf, as in Python.
//   - A lone surrogate escape ("\ud800") survives decoding as WTF-8 (the
//     three-byte encoding of the surrogate code point) and is written back
//     as "\ud800". A Go string holding other invalid UTF-8 has no Python
//     equivalent and is an error.
//   - Nesting is bounded by MaxDepth rather than by Python's recursion
//     limit (about 1000), so some inputs Python cannot load still hash.
//
// # The diff
//
// [Compare] mirrors compute_db_diff: tables added and removed (sorted),
// then per shared table either the raw values of a non-object table or the
// records added, removed and modified, recursively down to fields and list
// items. Two quirks of the original are kept on purpose:
//
//   - comparison uses Python's ==, so true equals 1 and false equals 0 in
//     the diff although their hashes differ;
//   - non-object tables are compared and reported raw (not normalised), so
//     [1.0, 2] equals [1, 2.0] there too, and "none" stays a string.
//
// [Diff.Tree] returns the Python dict shape; a Diff marshals to it.
package dbhash
