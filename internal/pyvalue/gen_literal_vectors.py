#!/usr/bin/env python3
"""Writes testdata/literal_vectors.jsonl: what CPython 3.11's eval() makes of
each source text below, for literal_test.go. Each line is {"src": text} plus
either "repr" (repr() of the value, tuples shown as lists, as ParseLiteral
returns them) or "error" (the exception type eval raised), or
"unsupported": true for a value ParseLiteral refuses on purpose (sets,
complex numbers, non-str keys, \\N escapes, operators, f-strings).
Run: python3 gen_literal_vectors.py > testdata/literal_vectors.jsonl
"""
import json
import sys

CASES = [
    "None", "True", "False", "[]", "{}", "()", "[1, 2, 3]", "(1,)", "(1)", "(1, 2)", "[1,]", "{'a': 1,}",
    "0", "00", "0_0", "01", "-0", "+5", "--5", "- 5", "-True", "+False", "-(1)", "-[1]", "-'a'",
    "123456789012345678901234567890", "-123456789012345678901234567890", "1_000", "1__000", "1_", "_1",
    "0x1F", "0X_ff", "0o17", "0b101", "0b102", "0x", "0xg", "12abc",
    "1.5", "1.", ".5", "1e5", "1E+16", "1e-05", "1.e5", "01.5", "01e5", "1e", "1e+", "1.5j", "3j",
    "1e400", "-1e400", "1e-400", "0.1", "2.5e-324", "1.7976931348623157e308", "1_0.5_0",
    "123456789012345678901234567890.5", "9007199254740993.0",
    "inf", "nan", "-inf", "x", "foo()", "[1, 2", "[1 2]", "{'a' 1}", "{'a': 1 'b': 2}", "{1: 2}",
    "{None: 1}", "{(1, 2): 3}", "{1, 2}", "{'a'}", "[1] [2]", "1 + 2", "", "   ", " [1] ", "[1]  # c",
    "[1,\n 2]", "'a' 'b'", "'a' b'b'", "'a'\n'b'", "b'x' b'y'", "r'\\n'", "R'\\''", "u'x'", "U'x'",
    "f'x'", "rb'\\x00'", "bR'a'", "'\\n\\t\\r\\a\\b\\f\\v\\\\\\'\\\"'", "'\\x41\\u00e9\\U0001F600'",
    "'\\101\\0\\777'", "'\\8'", "'\\q'", "'\\x4'", "'\\u12'", "'\\U00110000'", "'\\ud83d'",
    "'\\ud83d\\ude00'", "'\\N{DASH}'", "'a\\\nb'", "'unterminated", "'''tri\nple'''", '"""a"b""c"""',
    "'''x''", "'é'", "'😀'", "\"it's\"", "'say \"hi\"'", "'both \\' and \"'", "'\\\\'",
    "[{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': None, 'tool_calls': [{'id': 'c1', 'function': {'name': 'f', 'arguments': '{\"a\": 1}'}, 'type': 'function'}]}]",
    "{'a': 1, 'a': 2}", "{'b': 1, 'a': 2, 'b': 3}", "[True, False, None, 1.0, -0.0, 1e-05, 1e+16]",
    "'\\x00'", "'\\\r\n'", "[[[[[]]]]]", "[" * 200 + "]" * 200, "[" * 201 + "]" * 201,
    "'\\x7f\\x80\\xa0\\xad'", "'\\u2028\\u200b'", "b''", "b'\\xff'", "b'é'",
    "{'k': [1, (2, 3), {'n': {}}]}", "1" * 4300, "1" * 4301, "-" + "9" * 4300,
    "'''", "'\\", "[1,,2]", "[,]", "(,)", "{:}", "{'a':}", "\t[1]", "\f1", "[\\\n1]",
    "\u00a0[1]", "[1]\u3000",
]


# Valid Python that is not a literal: refused on purpose.
BY_DESIGN = {"1 + 2", "f'x'"}


def norm(v):
    if isinstance(v, tuple):
        return [norm(x) for x in v]
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def supported(v):
    if isinstance(v, (set, frozenset, complex)):
        return False
    if isinstance(v, (list, tuple)):
        return all(supported(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) for k in v) and all(supported(x) for x in v.values())
    return True


for src in CASES:
    out = {"src": src}
    try:
        v = eval(src, {"__builtins__": {}}, {})
    except BaseException as e:  # noqa: BLE001 - recording what eval raises
        out["error"] = type(e).__name__
    else:
        if "\\N" in src or src in BY_DESIGN or not supported(v):
            out["unsupported"] = True
        else:
            out["repr"] = repr(norm(v))
    sys.stdout.write(json.dumps(out) + "\n")
