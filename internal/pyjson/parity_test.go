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
