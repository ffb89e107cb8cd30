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
// call str(). Nesting deeper than 10,000 levels is an error wrapping
// [ErrTooDeep], never a stack overflow; text that does not parse wraps
// [ErrInvalidJSON].
//
// Large objects are hashed on several goroutines; the bytes hashed are the
// same as on one.
//
// # Hashing many copies of one DB: the Cache
//
//   - [Options.NewCache] encodes once the tables of a DB that will not change (the
//     DB every task of a benchmark starts from) and the records they hold;
//     [Options].Cache makes [Options.Hash] reuse that text for every table or record of
//     the hashed DB that is the very same map (copy-on-write copies share
//     what they did not write). The bytes hashed are those of a plain Hash.
//   - The Cache's promise, which the caller keeps: while the Cache is in
//     use, nothing reachable from the DB it was built from is modified, at
//     any depth. A broken promise is not detected as the hash runs: hashes
//     with the Cache are then silently stale. Two traps break it without
//     naming the source: append on a slice of a shared list, and a
//     function that edits a shared table it did not ask to own.
//   - NewCache encodes large tables in runs of records on all cores, and
//     keeps the SHA-256 state every 32 KiB of each table's text: hashing a
//     copy whose first changed table still starts with the source's
//     records resumes at the last such mark before the first change, so a
//     task that changed one record of a large table hashes only the text
//     from there on. The bytes hashed are still those of a plain Hash.
//   - Cache.verify encodes the source again and names the tables that
//     changed since NewCache; tests that share a DB call it after their
//     edits. It costs what NewCache did.
//   - The options of a hash with a Cache must be those the Cache was built
//     with (they are checked). state.Source builds and keeps a Cache for
//     the DB it shares, so most callers never build one.
//
// # Inputs Python accepts and strict JSON does not
//
// The policy: where Python's json.loads accepts a text, [HashJSON] and
// [Decode] accept it and hash it to Python's digest; where Python raises,
// they return an error naming Python's exception; the one exception is
// nesting, below.
//
//   - NaN, Infinity and -Infinity literals decode to float64 values and are
//     written bare, as Python writes them. A float that overflows (1e400)
//     decodes to ±Inf, as in Python.
//   - A float token is rounded from its exact decimal value, as Python's
//     float() rounds it, however long its digits or large its exponent.
//   - A lone surrogate escape ("\ud800") survives decoding as WTF-8 (the
//     three-byte encoding of the surrogate code point) and is written back
//     as "\ud800". A Go string holding other invalid UTF-8 has no Python
//     equivalent and is an error.
//   - Bytes in UTF-16 or UTF-32 (with or without a byte-order mark, told
//     apart by the zero bytes as Python does) are decoded and hashed as
//     Python hashes them; text invalid in its encoding is an error
//     wrapping [ErrInvalidJSON] that names UnicodeDecodeError.
//   - An integer of more than 4,300 digits is refused, as CPython (3.11
//     on) refuses to read or write one (ValueError, int_max_str_digits):
//     by Decode and HashJSON with [ErrInvalidJSON], and by Hash, for such a
//     json.Number or *big.Int, with [ErrUnsupported].
//   - Nesting is bounded by 10,000 levels rather than by Python's
//     recursion limit. Python's get_dict_hash raises RecursionError on
//     lists nested about 500 deep (its normalisation recurses in Python);
//     Go hashes them, as the same canonical text, and says so here: such a
//     DB has a Go hash and no Python one.
//
// Work is bounded by the input: order-independent lists nested k deep cost
// at most k times the input's size (each level encodes its items once,
// for their sort keys, as Python does), never 2^k; a list of one item is
// not sorted at all.
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
