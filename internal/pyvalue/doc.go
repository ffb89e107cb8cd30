// Package pyvalue computes what CPython 3.11 computes on the values
// json.loads makes — conversions, str and repr, comparisons, string
// methods, arithmetic and exceptions — so that Go code can reproduce the
// Python original's results and error texts byte for byte.
//
// Contract:
//
//   - Values are the JSON tree types pyjson decodes (nil, bool, string,
//     json.Number with its exact text, float64, []any, map[string]any),
//     plus Go integers, float32, *big.Int, [Num] and the ordered [Dict]
//     ([Loads] builds one for every object, keeping the text's order).
//     bool is an int, as in Python.
//   - Conversions: [Float], [ParseFloat], [Int], [ParseInt], [Str],
//     [Repr], [TypeName], [Truthy], [Len], [Round2] (round(x, 2)) and
//     [Format2] ("%.2f" % x).
//   - Comparisons: [Equal] (==, exact across int and float), [Less] (<,
//     with Python's TypeError between unordered types) and [Contains]
//     (in); iteration: [Iter] (list(v)).
//   - Strings: [Lower], [Upper], [Casefold], [Title], [Strip], [Split],
//     with Python's full case mappings and whitespace, from the Unicode
//     data CPython 3.11 carries (14.0.0; tables.go is generated from it
//     by gen_tables.py), not the Go toolchain's.
//   - Arithmetic: [Num] with Add, Sub, Mul, TrueDiv, FloorDiv and Mod:
//     ints exact at any size, Python's promotion to float, floor division
//     and modulo signs, and the exact ZeroDivisionError and OverflowError
//     texts.
//   - Failures are *[Error] values, Python exceptions (Type and Msg,
//     with Python's str and repr); Error() reads "Type: msg".
//   - A str is a Go string of UTF-8, where a lone surrogate (which
//     pyjson keeps from "\ud83d") is its three WTF-8 bytes and counts,
//     compares and prints as the one code point it is.
//   - json.dumps and json.loads stay pyjson's; [AppendJSON] and [Loads]
//     only add the order of a Dict to them.
//
// The conformance test runs every case of pyvalue_vectors.jsonl (from
// CPython 3.11) through the package.
package pyvalue
