// Package dbhash computes the canonical hash of a scenario DB and the
// structured difference between two DBs, byte-identical to the Python
// original (NeMo labs-Voice-Agent's get_dict_hash and compute_db_diff).
// Python-parity notes (inputs, quirks, limits): docs/parity/dbhash.md.
//
// The hash:
//
//   - [Hash] is the lowercase hex SHA-256 of [Canonical]'s bytes: the
//     value without its top-level key "session", normalised (whole floats
//     as integers, "none"/"null" strings as null, the lists of the
//     order-independent fields — standby_list, notifications, bookings,
//     system_accounts, group_memberships, asset_recoveries — sorted),
//     written as json.dumps(sort_keys=True, separators=(",", ":")),
//     ASCII only: the Python original's fixed choices.
//   - Values are JSON tree types (maps, slices, strings, bools, nil,
//     floats, json.Number, Go integers, *big.Int); anything else wraps
//     [ErrUnsupported]; nesting deeper than 10,000 levels wraps
//     [ErrTooDeep]; text that does not parse wraps [ErrInvalidJSON].
//   - [Decode] accepts what Python's json.loads accepts (NaN, Infinity,
//     lone surrogates, UTF-16/32), so Hash of what it returns is
//     Python's digest of the same text.
//   - Large objects are hashed on several goroutines; the bytes are the
//     same.
//   - Hashing many copies of one DB: state.Source caches the canonical
//     text of its tables (a cache internal to the module) and
//     state.Shared.Hash reuses it for every table or record that is the
//     very same map; the bytes hashed are those of a plain Hash.
//
// The diff:
//
//   - [Compare] mirrors compute_db_diff: tables added and removed, then
//     records added, removed and modified per table, with Python's ==
//     (true equals 1 there); [Diff.Tree] is the Python dict shape, and a
//     [Diff] marshals to it. [Equal] is Python's == on loaded values.
package dbhash
