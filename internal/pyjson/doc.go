// Package pyjson reads and writes JSON exactly as Python's json module
// does, for byte-level parity with the Python original.
//
// Encoding reproduces json.dumps(obj, sort_keys=True, ensure_ascii=True,
// allow_nan=True) with either separator style: keys sorted by code point,
// every non-ASCII character, control character and DEL escaped as \uXXXX
// with lowercase hex (surrogate pairs above U+FFFF), the short escapes
// \" \\ \n \r \t \b \f, floats in Python's repr (shortest round-trip
// digits, exponent form only below 1e-4 and from 1e16, as "1e-05" and
// "1e+16"), integers of any size, and NaN, Infinity and -Infinity bare.
//
// Decoding reproduces json.loads on bytes: the text is UTF-8 (a leading
// byte-order mark skipped), or UTF-16 or UTF-32 as Python detects them
// (byte-order mark, or the zero bytes ASCII leaves in the first four), all
// decoded with surrogatepass. Numbers stay exact (json.Number with their
// text: a token with '.', 'e' or 'E' is a float, anything else an integer
// of any size up to MaxIntDigits), the literals NaN, Infinity and
// -Infinity become float64 values, duplicate keys keep the last value, and
// escaped lone surrogates survive as WTF-8 (the three-byte encoding of the
// surrogate code point), which the encoder escapes back to \udXXX. Keys,
// short strings and number tokens are interned (best effort: in tables
// that never grow, where a later text may take an earlier one's slot),
// strings and numbers apart. [DecodePrinted] also fingerprints the value
// as it decodes it, with the parts package state fingerprints a DB with;
// [DecodeOrdered] also notes the key order of its objects (Python's dicts
// keep it, a Go map does not), once per set of keys and by object for the
// objects whose order differs from their set's first.
//
// What Python refuses, Decode refuses, naming Python's error: text invalid
// in its detected encoding is a *DecodeError (UnicodeDecodeError); an
// integer of more than 4,300 digits wraps ErrIntDigits (ValueError, from
// CPython's int_max_str_digits), and the encoder refuses such an integer
// too, as json.dumps does. Nesting is bounded by MaxDepth (10,000), not by
// Python's recursion limit: Go decodes nesting Python cannot.
//
// A float token becomes a float64 through [ParseFloat], which rounds the
// exact decimal value as Python's float() does, however many digits or
// however large an exponent the text has (strconv.ParseFloat misreads
// texts of over 800 digits and exponents past 10,000).
//
// Values are the JSON tree types: map[string]any, []any, string, bool, nil,
// json.Number, float64 and Go integers.
package pyjson
