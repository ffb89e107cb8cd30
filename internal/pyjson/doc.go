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
// Decoding reproduces json.loads on UTF-8 input: numbers stay exact
// (json.Number with their text: a token with '.', 'e' or 'E' is a float,
// anything else an integer of any size), the literals NaN, Infinity and
// -Infinity become float64 values, duplicate keys keep the last value, and
// escaped lone surrogates survive as WTF-8 (the three-byte encoding of the
// surrogate code point), which the encoder escapes back to \udXXX.
//
// Values are the JSON tree types: map[string]any, []any, string, bool, nil,
// json.Number, float64 and Go integers.
package pyjson
