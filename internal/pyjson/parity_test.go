package pyjson_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// A string made of NUL and a number's text is a string, whatever number
// came before it (the interning of short values once keyed both alike).
func TestDecodeNumbersAndStringsNeverShareABox(t *testing.T) {
	tests := []struct {
		in   string
		want []any
	}{
		{`[8,"\u00008"]`, []any{json.Number("8"), "\x008"}},
		{`["\u00008",8]`, []any{"\x008", json.Number("8")}},
		{`[1.5,"\u00001.5",1.5,"1.5"]`, []any{json.Number("1.5"), "\x001.5", json.Number("1.5"), "1.5"}},
		{`["8",8,"8"]`, []any{"8", json.Number("8"), "8"}},
	}
	for _, tt := range tests {
		v, err := pyjson.Decode([]byte(tt.in))
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, v, tt.in)
	}
}

// halfSmallest holds the digits of 5^1075.
var halfSmallest = new(big.Int).Exp(big.NewInt(5), big.NewInt(1075), nil).String()

// Decimal texts strconv misreads round their exact value, as Python's
// float() does.
func TestParseFloatExact(t *testing.T) {
	tests := []struct {
		name, in string
		want     float64
	}{
		// 2^53+1 and a little more: above the midpoint, so up to 2^53+2.
		{"801 digits", "9007199254740993" + strings.Repeat("0", 785) + "1e-786", 9007199254740994},
		{"801 digits, exact midpoint", "9007199254740993" + strings.Repeat("0", 786) + "e-786", 9007199254740992},
		{"801 digits, just below", "9007199254740992" + strings.Repeat("9", 786) + "e-786", 9007199254740992},
		{"exponent past 10000", "0." + strings.Repeat("0", 99999) + "1e100005", 100000},
		{"huge exponent, tiny mantissa", "0." + strings.Repeat("0", 20000) + "15e20001", 1.5},
		{"exponent of many digits", "1e-" + strings.Repeat("9", 30), 0},
		{"negative zero", "-0." + strings.Repeat("0", 1000), math.Copysign(0, -1)},
		{"long integer part", strings.Repeat("1", 1000) + ".5e-990", 1111111111.1111112},
		{"long zeros then digits", "0." + strings.Repeat("0", 1000) + "25e1001", 2.5},
		{"short", "0.1", 0.1},
		{"subnormal", "4.9406564584124654e-324", 5e-324},
		{"long subnormal", "2.4703282292062328" + strings.Repeat("0", 900) + "1e-324", 5e-324},
		{"long above half the smallest", "2.4703282292062327" + strings.Repeat("9", 900) + "e-324", 5e-324},
		// Half the smallest subnormal is 2^-1075 = 5^1075 × 10^-1075 exactly:
		// a tie (to even: 0), and a hair above and below it.
		{"half the smallest", halfSmallest + "e-1075", 0},
		{"above half the smallest", halfSmallest + "0001e-1079", 5e-324},
		{"below half the smallest", halfSmallest[:len(halfSmallest)-1] + "49999e-1079", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pyjson.ParseFloat(tt.in)
			require.NoError(t, err)
			assert.Equal(t, math.Float64bits(tt.want), math.Float64bits(got), "got %v, want %v", got, tt.want)
		})
	}
	f, err := pyjson.ParseFloat("1" + strings.Repeat("0", 1000) + "e-600")
	assert.True(t, math.IsInf(f, 1))
	assert.ErrorIs(t, err, strconv.ErrRange)
	f, err = pyjson.ParseFloat("-1e" + strings.Repeat("9", 20))
	assert.True(t, math.IsInf(f, -1))
	assert.ErrorIs(t, err, strconv.ErrRange)
	_, err = pyjson.ParseFloat("1e")
	assert.ErrorIs(t, err, strconv.ErrSyntax)
}

// json.loads reads bytes in UTF-16 or UTF-32 too, by their byte-order mark
// or their zero bytes, with surrogatepass.
func TestDecodeDetectsUTF16AndUTF32(t *testing.T) {
	const text = `{"a": "é😀\ud800", "b": [1, 2.5]}`
	want, err := pyjson.Decode([]byte(text))
	require.NoError(t, err)
	units := []rune{}
	for _, r := range `{"a": "é😀` {
		units = append(units, r)
	}
	units = append(units, 0xd800)
	for _, r := range `", "b": [1, 2.5]}` {
		units = append(units, r)
	}
	utf16 := func(big bool, bom bool) []byte {
		var b []byte
		put := func(u uint16) {
			if big {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		if bom {
			put(0xfeff)
		}
		for _, r := range units {
			if r >= 0x10000 {
				r -= 0x10000
				put(uint16(0xd800 + r>>10))
				put(uint16(0xdc00 + r&0x3ff))
				continue
			}
			put(uint16(r))
		}
		return b
	}
	utf32 := func(big bool, bom bool) []byte {
		var b []byte
		put := func(u uint32) {
			if big {
				b = append(b, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
			}
		}
		if bom {
			put(0xfeff)
		}
		for _, r := range units {
			put(uint32(r))
		}
		return b
	}
	for name, in := range map[string][]byte{
		"utf-16 BOM LE": utf16(false, true), "utf-16 BOM BE": utf16(true, true),
		"utf-16-le": utf16(false, false), "utf-16-be": utf16(true, false),
		"utf-32 BOM LE": utf32(false, true), "utf-32 BOM BE": utf32(true, true),
		"utf-32-le": utf32(false, false), "utf-32-be": utf32(true, false),
		"utf-8-sig": append([]byte("\xef\xbb\xbf"), text...),
	} {
		got, err := pyjson.Decode(in)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	// Two-byte inputs, and what Python refuses (UnicodeDecodeError).
	v, err := pyjson.Decode([]byte("7\x00"))
	require.NoError(t, err)
	assert.Equal(t, json.Number("7"), v)
	v, err = pyjson.Decode([]byte("\x007"))
	require.NoError(t, err)
	assert.Equal(t, json.Number("7"), v)
	for in, reason := range map[string]string{
		"\xff\xfe{\x00}":    "utf-16-le: truncated data",
		"1\x00\x00\x00\x00": "utf-32-le: truncated data",
		"\"\x00\x00\x00\x00\x00\x11\x00\"\x00\x00\x00": "utf-32-le: code point not in range(0x110000)",
	} {
		_, err := pyjson.Decode([]byte(in))
		var de *pyjson.DecodeError
		require.ErrorAs(t, err, &de, "%q", in)
		assert.Equal(t, reason, de.Encoding+": "+de.Reason, "%q", in)
		assert.ErrorIs(t, err, pyjson.ErrSyntax)
	}
}

// Python's int_max_str_digits: json.loads and json.dumps raise ValueError
// past 4,300 digits (the sign aside).
func TestIntDigitsLimit(t *testing.T) {
	for _, in := range []string{strings.Repeat("7", 4300), "-" + strings.Repeat("7", 4300), strings.Repeat("7", 4301) + ".0"} {
		_, err := pyjson.Decode([]byte(in))
		assert.NoError(t, err, "%d chars", len(in))
	}
	for _, in := range []string{strings.Repeat("7", 4301), "[-" + strings.Repeat("7", 4301) + "]"} {
		_, err := pyjson.Decode([]byte(in))
		assert.ErrorIs(t, err, pyjson.ErrIntDigits)
		assert.ErrorIs(t, err, pyjson.ErrSyntax)
		assert.ErrorContains(t, err, "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit")
	}
	long, _ := new(big.Int).SetString(strings.Repeat("7", 4301), 10)
	for _, v := range []any{json.Number(strings.Repeat("7", 4301)), long, []any{json.Number("-" + strings.Repeat("7", 4301))}} {
		_, err := pyjson.Marshal(v, pyjson.Compact)
		assert.ErrorIs(t, err, pyjson.ErrIntDigits)
		assert.ErrorContains(t, err, "ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit")
	}
	_, err := pyjson.Marshal(json.Number("-"+strings.Repeat("7", 4300)), pyjson.Compact)
	assert.NoError(t, err)
}

// A number that is only a sign fails where the value starts, as Python
// reports "Expecting value: line 1 column 1 (char 0)".
func TestDecodeLoneMinusOffset(t *testing.T) {
	for in, offset := range map[string]int{"-": 0, "-x": 0, "[1, -]": 4} {
		_, err := pyjson.Decode([]byte(in))
		var se *pyjson.SyntaxError
		require.ErrorAs(t, err, &se, in)
		assert.Equal(t, offset, se.Offset, in)
	}
}

// Every Go integer type is written as its decimal value.
func TestAppendIntegerTypes(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{int(-1), "-1"}, {int8(-128), "-128"}, {int16(-32768), "-32768"}, {int32(-2147483648), "-2147483648"},
		{int64(-9223372036854775808), "-9223372036854775808"}, {uint(7), "7"}, {uint8(255), "255"},
		{uint16(65535), "65535"}, {uint32(4294967295), "4294967295"}, {uint64(18446744073709551615), "18446744073709551615"},
		{new(big.Int).Lsh(big.NewInt(1), 70), "1180591620717411303424"}, {(*big.Int)(nil), "null"},
	}
	for _, tt := range tests {
		got, ok := pyjson.AppendInteger([]byte("x"), tt.in)
		assert.True(t, ok, "%T", tt.in)
		assert.Equal(t, "x"+tt.want, string(got), "%T", tt.in)
	}
	_, ok := pyjson.AppendInteger(nil, 1.5)
	assert.False(t, ok)
}
