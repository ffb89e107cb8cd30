package rtvi

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func reprBigInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad big int " + s)
	}
	return n
}

type reprTestStruct struct {
	Role    string   `json:"role"`
	Content string   `json:"content"`
	Score   float64  `json:"score"`
	Tags    []string `json:"tags"`
}

// pythonReprCases hold Go values and what Python 3 prints for their
// equivalents, checked against CPython.
var pythonReprCases = []struct {
	name string
	in   any
	want string
}{
	// Messages and containers.
	{"message list of Objects", []any{orderedObject{{"role", "user"}, {"content", "hi"}}}, `[{'role': 'user', 'content': 'hi'}]`},
	{"Object keeps order", orderedObject{{"z", 1}, {"a", 2}}, `{'z': 1, 'a': 2}`},
	{"map sorted by key", map[string]any{"z": 1, "a": 2, "é": 3, "B": 4}, `{'B': 4, 'a': 2, 'z': 1, 'é': 3}`},
	{"list of maps", []map[string]any{{"role": "user"}, {}}, `[{'role': 'user'}, {}]`},
	{"empty list", []any{}, `[]`},
	{"empty Object", orderedObject{}, `{}`},
	{"empty map", map[string]any{}, `{}`},
	{"nil list is empty", []any(nil), `[]`},
	{"nil Object is empty", orderedObject(nil), `{}`},
	{"nil map is empty", map[string]any(nil), `{}`},
	{"nested", orderedObject{{"a", []any{1, []any{}, orderedObject{{"b", nil}}, map[string]any{"c": []any{true}}}}},
		`{'a': [1, [], {'b': None}, {'c': [True]}]}`},
	{"duplicate keys as a Python dict holds them", orderedObject{{"a", 1}, {"b", 2}, {"a", 3}, {"c", 4}, {"b", 5}},
		`{'a': 3, 'b': 5, 'c': 4}`},
	{"struct in field order", reprTestStruct{Role: "user", Content: "hi", Score: 1, Tags: []string{"x"}},
		`{'role': 'user', 'content': 'hi', 'score': 1, 'tags': ['x']}`},
	{"struct nil slice is None", reprTestStruct{}, `{'role': '', 'content': '', 'score': 0, 'tags': None}`},
	{"raw JSON", json.RawMessage(`{"b": [1.5, "x"], "a": null}`), `{'b': [1.5, 'x'], 'a': None}`},
	{"key quoting", orderedObject{{"it's", "x"}}, `{"it's": 'x'}`},

	// Quotes.
	{"single quote picks double quotes", "it's", `"it's"`},
	{"double quotes kept in single quotes", `say "hi"`, `'say "hi"'`},
	{"both quotes escape the single quote", `it's "x"`, `'it\'s "x"'`},
	{"empty string", "", `''`},

	// Escapes.
	{"backslash", `a\b`, `'a\\b'`},
	{"tab newline return", "\t\n\r", `'\t\n\r'`},
	{"other C0 controls and DEL", "\x00\x01\b\f\x1b\x1f\x7f", `'\x00\x01\x08\x0c\x1b\x1f\x7f'`},
	{"printable ASCII", " ~!#$%&()*+,-./:;<=>?@[]^_`{|}", "' ~!#$%&()*+,-./:;<=>?@[]^_`{|}'"},

	// Non-ASCII.
	{"accented letter kept", "café", `'café'`},
	{"zero width space escaped", "a\u200bb", `'a\u200bb'`},
	{"emoji kept", "hi 😀", `'hi 😀'`},
	{"no-break space escaped", "\u00a0", `'\xa0'`},
	{"soft hyphen escaped", "\u00ad", `'\xad'`},
	{"C1 control escaped", "\u0085", `'\x85'`},
	{"line separator escaped", "\u2028", `'\u2028'`},
	{"ideographic space escaped", "\u3000", `'\u3000'`},
	{"BOM escaped", "\ufeff", `'\ufeff'`},
	{"private use escaped", "\ue000", `'\ue000'`},
	{"unassigned escaped", "\u0378", `'\u0378'`},
	{"replacement character kept", "\ufffd", `'�'`},
	{"astral format character escaped", "\U000e0001", `'\U000e0001'`},
	{"last code point escaped", "\U0010ffff", `'\U0010ffff'`},
	{"combining mark kept", "e\u0301", "'e\u0301'"},
	{"CJK kept", "日本語", `'日本語'`},
	{"lone high surrogate", "a\xed\xa0\x80b", `'a\ud800b'`},
	{"lone low surrogate", "\xed\xbf\xbf", `'\udfff'`},
	{"surrogates in reverse order", "\xed\xb8\x80\xed\xa0\xbd", `'\ude00\ud83d'`},
	{"code point before surrogates", "\ud7ff", `'\ud7ff'`},
	// CPython 3.11 knows Unicode 14: characters new in Unicode 15 (which
	// Go's unicode.IsPrint accepts) are unassigned there, so escaped.
	{"Unicode 15 Kannada sign escaped", "\u0cf3", `'\u0cf3'`},
	{"Unicode 15 emoji escaped", "\U0001f6dc", `'\U0001f6dc'`},

	// Floats.
	{"one", 1.0, `1.0`},
	{"tenth", 0.1, `0.1`},
	{"small exponent", 1e-05, `1e-05`},
	{"last fixed small", 0.0001, `0.0001`},
	{"large exponent", 1e16, `1e+16`},
	{"large with fraction digits", 1.5e16, `1.5e+16`},
	{"last fixed large", 9999999999999998.0, `9999999999999998.0`},
	{"negative zero", math.Copysign(0, -1), `-0.0`},
	{"fraction", -123.456, `-123.456`},
	{"third", 1.0 / 3, `0.3333333333333333`},
	{"smallest", 5e-324, `5e-324`},
	{"largest", math.MaxFloat64, `1.7976931348623157e+308`},
	{"inf", math.Inf(1), `inf`},
	{"negative inf", math.Inf(-1), `-inf`},
	{"nan", math.NaN(), `nan`},
	{"float32 as sent in JSON", float32(0.1), `0.1`},
	{"float32 inf", float32(math.Inf(-1)), `-inf`},

	// json.Number.
	{"number integer", json.Number("42"), `42`},
	{"number negative zero integer", json.Number("-0"), `0`},
	{"number huge integer", json.Number("123456789012345678901234567890"), `123456789012345678901234567890`},
	{"number float one", json.Number("1.0"), `1.0`},
	{"number exponent", json.Number("1e2"), `100.0`},
	{"number upper exponent", json.Number("1E2"), `100.0`},
	{"number kept digits", json.Number("1.50"), `1.5`},
	{"number overflow", json.Number("1e400"), `inf`},
	{"number negative overflow", json.Number("-1e400"), `-inf`},
	{"number underflow", json.Number("1e-400"), `0.0`},
	{"number negative zero float", json.Number("-0.0"), `-0.0`},
	{"number big exponent form", json.Number("12345678901234567890.0"), `1.2345678901234567e+19`},

	// Integers.
	{"int", 7, `7`},
	{"negative int", -7, `-7`},
	{"int64 min", int64(math.MinInt64), `-9223372036854775808`},
	{"uint64 max", uint64(math.MaxUint64), `18446744073709551615`},
	{"int8", int8(-8), `-8`},
	{"uint8", uint8(255), `255`},
	{"big int", reprBigInt("1267650600228229401496703205376"), `1267650600228229401496703205376`},
	{"negative big int", reprBigInt("-99999999999999999999"), `-99999999999999999999`},
	{"nil big int", (*big.Int)(nil), `None`},
	{"uintptr via JSON", uintptr(9), `9`},

	// Constants.
	{"true", true, `True`},
	{"false", false, `False`},
	{"nil", nil, `None`},
	{"nil pointer", (*reprTestStruct)(nil), `None`},

	// Bytes.
	{"bytes", []byte("abc"), `b'abc'`},
	{"empty bytes", []byte{}, `b''`},
	{"nil bytes", []byte(nil), `b''`},
	{"bytes escapes", []byte("\x00\t\n\r\\\x7f\x80\xff"), `b'\x00\t\n\r\\\x7f\x80\xff'`},
	{"bytes single quote", []byte("it's"), `b"it's"`},
	{"bytes both quotes", []byte(`it's "x"`), `b'it\'s "x"'`},
	{"bytes UTF-8 escaped", []byte("é"), `b'\xc3\xa9'`},
	{"bytes in list", []any{[]byte("a"), "b"}, `[b'a', 'b']`},
}

func TestPythonRepr(t *testing.T) {
	for _, tt := range pythonReprCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pythonRepr(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestPythonReprOfSanitizedContext(t *testing.T) {
	in := []any{
		orderedObject{{"role", "user"}, {"content", []any{
			orderedObject{{"type", "text"}, {"text", "what's this?"}},
			orderedObject{{"type", "input_audio"}, {"input_audio", orderedObject{{"data", strings.Repeat("QUJD", 1000)}, {"format", "wav"}}}},
		}}},
		orderedObject{{"role", "assistant"}, {"content", "It's a \"cat\".\n"}, {"image", []byte{1, 2}}},
	}
	got, err := pythonRepr(sanitizeContext(in))
	require.NoError(t, err)
	want := `[{'role': 'user', 'content': [{'type': 'text', 'text': "what's this?"}, ` +
		`{'type': 'input_audio', 'input_audio': {'data': '<audio>', 'format': 'wav'}}]}, ` +
		`{'role': 'assistant', 'content': 'It\'s a "cat".\n', 'image': '<image>'}]`
	assert.Equal(t, want, got)
}

func TestPythonReprErrors(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	cyclicMap := map[string]any{}
	cyclicMap["m"] = cyclicMap

	var tooDeep any = 1
	for range treeMaxDepth + 1 {
		tooDeep = []any{tooDeep}
	}
	tests := []struct {
		name string
		in   any
	}{
		{"invalid number", json.Number("abc")},
		{"number with leading zero", json.Number("01")},
		{"empty number", json.Number("")},
		{"channel", make(chan int)},
		{"function in a list", []any{func() {}}},
		{"complex", complex(1, 2)},
		{"cyclic list", cyclic},
		{"cyclic map", cyclicMap},
		{"too deep", tooDeep},
		{"panicking marshaler", sanPanicky{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pythonRepr(tt.in)
			require.Error(t, err)
			assert.Empty(t, got)
		})
	}
}

// Bytes that are neither UTF-8 nor WTF-8 read as U+FFFD, which Python
// prints as itself: a rune cut in half must not cost the whole transcript.
func TestPythonReprInvalidUTF8(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"invalid UTF-8", "a\xffb", "'a\ufffdb'"},
		{"truncated UTF-8", "caf\xc3", "'caf\ufffd'"},
		{"truncated three-byte rune", "\xe2\x82", "'\ufffd\ufffd'"},
		{"overlong encoding", "\xc0\xaf", "'\ufffd\ufffd'"},
		{"truncated surrogate", "\xed\xa0", "'\ufffd\ufffd'"},
		{"invalid UTF-8 key", orderedObject{{"\xff", 1}}, "{'\ufffd': 1}"},
		{"invalid UTF-8 map key", map[string]any{"\xfe": 1}, "{'\ufffd': 1}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pythonRepr(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestPythonReprDepthLimit(t *testing.T) {
	var deep any = "x"
	for range treeMaxDepth {
		deep = orderedObject{{"k", deep}}
	}
	got, err := pythonRepr(deep)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("{'k': ", treeMaxDepth)+"'x'"+strings.Repeat("}", treeMaxDepth), got)

	_, err = pythonRepr([]any{deep})
	require.ErrorIs(t, err, errTreeDepth)
}

// The transcript's literal for the kinds of values a conversation holds
// (formerly ExamplePythonRepr).
func TestPythonReprOfMessageValues(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{orderedObject{{Key: "role", Value: "user"}, {Key: "content", Value: "it's"}}, `{'role': 'user', 'content': "it's"}`},
		{map[string]any{"b": 1.0, "a": []any{true, nil, math.Inf(1)}}, `{'a': [True, None, inf], 'b': 1.0}`},
		{"tab\there, no-break\u00a0space, café", `'tab\there, no-break\xa0space, café'`},
		{[]byte("\x00raw"), `b'\x00raw'`},
	} {
		got, err := pythonRepr(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("pythonRepr(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
