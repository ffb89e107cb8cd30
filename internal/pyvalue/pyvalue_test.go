package pyvalue

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
)

func TestError(t *testing.T) {
	tests := []struct {
		err             *Error
		text, str, repr string
	}{
		{Raise("ValueError", "could not convert string to float: %s", Repr("x")), "ValueError: could not convert string to float: 'x'", "could not convert string to float: 'x'", `ValueError("could not convert string to float: 'x'")`},
		{&Error{Type: "KeyError", Msg: "a"}, "KeyError: 'a'", "'a'", "KeyError('a')"},
		{&Error{Type: "ZeroDivisionError", Msg: "division by zero"}, "ZeroDivisionError: division by zero", "division by zero", "ZeroDivisionError('division by zero')"},
		{&Error{Type: "StopIteration"}, "StopIteration", "", "StopIteration()"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.text {
			t.Errorf("Error() = %q, want %q", got, tt.text)
		}
		if got := tt.err.Str(); got != tt.str {
			t.Errorf("Str() = %q, want %q", got, tt.str)
		}
		if got := tt.err.Repr(); got != tt.repr {
			t.Errorf("Repr() = %q, want %q", got, tt.repr)
		}
		if got := Str(tt.err); got != tt.str {
			t.Errorf("Str(err) = %q, want %q", got, tt.str)
		}
	}
	_, err := Len(nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.Type != "TypeError" || pe.Msg != "object of type 'NoneType' has no len()" {
		t.Errorf("Len(nil) = %v", err)
	}
}

func TestValues(t *testing.T) {
	dup := Dict{{"b", 1}, {"a", 2}, {"b", json.Number("3.0")}}
	tests := []struct {
		v         any
		typ, repr string
		truthy    bool
		len       int // -1: no len()
	}{
		{nil, "NoneType", "None", false, -1},
		{true, "bool", "True", true, -1},
		{int8(-3), "int", "-3", true, -1},
		{uint64(math.MaxUint64), "int", "18446744073709551615", true, -1},
		{new(big.Int).Lsh(big.NewInt(1), 70), "int", "1180591620717411303424", true, -1},
		{float32(0.5), "float", "0.5", true, -1},
		{math.NaN(), "float", "nan", true, -1},
		{json.Number("-0"), "int", "0", false, -1},
		{json.Number("1e400"), "float", "inf", true, -1},
		{"a\xed\xa0\xbd", "str", `'a\ud83d'`, true, 2},
		{"\U0001f600\u00ad\U000e0001", "str", "'\U0001f600\\xad\\U000e0001'", true, 3},
		{"bad\xff", "str", "'bad\ufffd'", true, 4},
		{map[string]any{"z": 1, "a": []any{}}, "dict", "{'a': [], 'z': 1}", true, 2},
		{dup, "dict", "{'b': 3.0, 'a': 2}", true, 2},
		{Dict{}, "dict", "{}", false, 0},
		{IntNum(5), "int", "5", true, -1},
		{struct{}{}, "<Go struct {}>", "<Go struct {}>", true, -1},
	}
	for _, tt := range tests {
		if got := TypeName(tt.v); got != tt.typ {
			t.Errorf("TypeName(%#v) = %q, want %q", tt.v, got, tt.typ)
		}
		if got := Repr(tt.v); got != tt.repr {
			t.Errorf("Repr(%#v) = %q, want %q", tt.v, got, tt.repr)
		}
		if got := Truthy(tt.v); got != tt.truthy {
			t.Errorf("Truthy(%#v) = %v", tt.v, got)
		}
		n, err := Len(tt.v)
		if tt.len < 0 && err == nil || tt.len >= 0 && (err != nil || n != tt.len) {
			t.Errorf("Len(%#v) = %d, %v; want %d", tt.v, n, err, tt.len)
		}
	}
}

func TestEqualContains(t *testing.T) {
	nanList := []any{math.NaN()}
	tests := []struct {
		a, b          any
		equal, loaded bool
	}{
		{json.Number("1"), 1.0, true, true},
		{true, json.Number("1.0"), true, true},
		{new(big.Int).Lsh(big.NewInt(1), 64), 18446744073709551616.0, true, true},
		{json.Number("9007199254740993"), 9007199254740992.0, false, false},
		{math.NaN(), math.NaN(), false, false},
		{nanList, []any{math.NaN()}, false, true},
		{Dict{{"a", 1}, {"b", 2}}, map[string]any{"b": 2.0, "a": true}, true, true},
		{Dict{{"a", 1}, {"a", 2}}, map[string]any{"a": 2}, true, true},
		{"1", 1, false, false},
		{nil, nil, true, true},
	}
	for _, tt := range tests {
		if got := Equal(tt.a, tt.b); got != tt.equal {
			t.Errorf("Equal(%v, %v) = %v", tt.a, tt.b, got)
		}
		if got := EqualLoaded(tt.a, tt.b); got != tt.loaded {
			t.Errorf("EqualLoaded(%v, %v) = %v", tt.a, tt.b, got)
		}
	}
	if _, err := Contains([]any{1}, map[string]any{}); err == nil || err.Error() != "TypeError: unhashable type: 'list'" {
		t.Errorf("[1] in {}: %v", err)
	}
	if ok, err := Contains(1, Dict{{"1", nil}}); ok || err != nil {
		t.Errorf("1 in {'1': None} = %v, %v", ok, err)
	}
	if ok, _ := Contains("a", Dict{{"a", nil}}); !ok {
		t.Error("'a' in {'a': None} is false")
	}
	if _, err := Less([]any{1, "a"}, []any{1, 2}); err == nil || err.Error() != "TypeError: '<' not supported between instances of 'str' and 'int'" {
		t.Errorf("[1, 'a'] < [1, 2]: %v", err)
	}
}

func TestIter(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []any
	}{
		{[]any{int64(1), "a"}, []any{int64(1), "a"}},
		{Dict{{"b", 1}, {"a", 2}, {"b", 3}}, []any{"b", "a"}},
		{map[string]any{"b": 1, "a": 2}, []any{"a", "b"}},
		{"hé", []any{"h", "é"}},
		{"", []any{}},
		// A lone surrogate (WTF-8, as pyjson decodes "\ud83d") is one
		// character, as Python and Len count it.
		{"a\xed\xa0\xbdb", []any{"a", "\xed\xa0\xbd", "b"}},
	} {
		got, err := Iter(c.v)
		if err != nil || !Equal(got, c.want) {
			t.Errorf("Iter(%#v) = %#v, %v; want %#v", c.v, got, err, c.want)
		}
	}
	if _, err := Iter(int64(1)); err == nil || err.Error() != "TypeError: 'int' object is not iterable" {
		t.Errorf("Iter(1): %v", err)
	}
}

func TestNum(t *testing.T) {
	huge := BigNum(new(big.Int).Lsh(big.NewInt(1), 1024))
	tests := []struct {
		name string
		got  func() (Num, error)
		want string // String(), or the error text
	}{
		{"maxint+1", func() (Num, error) { return IntNum(math.MaxInt64).Add(IntNum(1)) }, "9223372036854775808"},
		{"minint-1", func() (Num, error) { return IntNum(math.MinInt64).Sub(IntNum(1)) }, "-9223372036854775809"},
		{"minint*-1", func() (Num, error) { return IntNum(math.MinInt64).Mul(IntNum(-1)) }, "9223372036854775808"},
		{"minint//-1", func() (Num, error) { return IntNum(math.MinInt64).FloorDiv(IntNum(-1)) }, "9223372036854775808"},
		{"-7//2", func() (Num, error) { return IntNum(-7).FloorDiv(IntNum(2)) }, "-4"},
		{"-7%2", func() (Num, error) { return IntNum(-7).Mod(IntNum(2)) }, "1"},
		{"7%-2", func() (Num, error) { return IntNum(7).Mod(IntNum(-2)) }, "-1"},
		{"big%-3", func() (Num, error) { return huge.Mod(IntNum(-3)) }, "-2"},
		{"-7.5//2", func() (Num, error) { return FloatNum(-7.5).FloorDiv(IntNum(2)) }, "-4.0"},
		{"7.5%-2", func() (Num, error) { return FloatNum(7.5).Mod(IntNum(-2)) }, "-0.5"},
		{"huge+0.5", func() (Num, error) { return huge.Add(FloatNum(0.5)) }, "OverflowError: int too large to convert to float"},
		{"huge/1", func() (Num, error) { return huge.TrueDiv(IntNum(1)) }, "OverflowError: integer division result too large for a float"},
		{"huge/huge", func() (Num, error) { return huge.TrueDiv(huge) }, "1.0"},
		{"1/3", func() (Num, error) { return IntNum(1).TrueDiv(IntNum(3)) }, "0.3333333333333333"},
		{"0.0//0", func() (Num, error) { return FloatNum(0).FloorDiv(IntNum(0)) }, "ZeroDivisionError: float floor division by zero"},
		{"int(1e300)", func() (Num, error) { return Int(1e300) }, "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"},
		{"int('٣')", func() (Num, error) { return ParseInt("\u0663") }, "3"},
	}
	for _, tt := range tests {
		n, err := tt.got()
		got := n.String()
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s = %s, want %s", tt.name, got, tt.want)
		}
	}
	if i, ok := IntNum(3).Int64(); !ok || i != 3 {
		t.Error("Int64 of 3")
	}
	if _, ok := huge.Int64(); ok {
		t.Error("Int64 of 2**1024 is ok")
	}
	if c, ok := huge.Cmp(FloatNum(math.MaxFloat64)); !ok || c != 1 {
		t.Error("2**1024 is not above the largest float")
	}
	if _, err := ParseInt(string(make([]byte, 0)) + "1" + string(bytesOf('0', 4300))); err == nil {
		t.Error("a 4,301-digit int parses")
	}
}

func bytesOf(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

func TestLoadsAppendJSON(t *testing.T) {
	v, err := Loads([]byte("\ufeff" + `{"b": [1, {"z": NaN, "a": "\ud83d"}], "a": 1.50, "b": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Dict{{"b", json.Number("2")}, {"a", json.Number("1.50")}}
	if !Equal(v, want) || Repr(v) != "{'b': 2, 'a': 1.5}" {
		t.Errorf("Loads = %s", Repr(v))
	}
	for _, tt := range []struct {
		sorted bool
		want   string
	}{{false, `{"b": 2, "a": 1.5}`}, {true, `{"a": 1.5, "b": 2}`}} {
		b, err := AppendJSON(nil, v, pyjson.Default, tt.sorted)
		if err != nil || string(b) != tt.want {
			t.Errorf("AppendJSON(sorted=%v) = %s, %v; want %s", tt.sorted, b, err, tt.want)
		}
	}
	if _, err := Loads([]byte(`{"a": }`)); !errors.Is(err, pyjson.ErrSyntax) {
		t.Errorf("Loads of bad JSON: %v", err)
	}
}
