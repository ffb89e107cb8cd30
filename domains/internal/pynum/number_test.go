package pynum_test

import (
	"encoding/json"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// DBNumber stores a number as the json.Number Python's json.dumps writes,
// so that it hashes and encodes as the Python original's value.
func TestDBNumber(t *testing.T) {
	i, f := pyvalue.IntNum, pyvalue.FloatNum
	sum, err := i(163).Sub(i(50))
	require.NoError(t, err)
	assert.Equal(t, json.Number("113"), pynum.DBNumber(sum))
	sum, err = f(163).Sub(i(50))
	require.NoError(t, err)
	assert.Equal(t, json.Number("113.0"), pynum.DBNumber(sum), "a float stays a float, even whole")
	assert.Equal(t, json.Number("1e+16"), pynum.DBNumber(f(1e16)))
	assert.Equal(t, json.Number("-0.0"), pynum.DBNumber(f(0).Neg()))
	assert.Equal(t, math.Inf(1), pynum.DBNumber(f(math.Inf(1))))
	assert.True(t, math.IsNaN(pynum.DBNumber(f(math.NaN())).(float64)))
	big20, _ := new(big.Int).SetString("100000000000000000000", 10)
	assert.Equal(t, json.Number("100000000000000000000"), pynum.DBNumber(pyvalue.BigNum(big20)))
}

func TestLessAndMax(t *testing.T) {
	i, f := pyvalue.IntNum, pyvalue.FloatNum
	// 2**53 + 1 is not the float 2**53, although float64(2**53+1) is.
	assert.True(t, pynum.Less(f(1<<53), i(1<<53+1)))
	assert.True(t, pynum.Less(i(2), f(2.5)))
	assert.False(t, pynum.Less(f(2.5), i(2)))
	nan := f(math.NaN())
	assert.False(t, pynum.Less(nan, i(1)))
	assert.False(t, pynum.Less(i(1), nan))
	// max(0, x) returns 0 itself when x == 0, as Python's max keeps the
	// first of equals.
	assert.Equal(t, "0", pynum.Max(i(0), f(0)).String())
	assert.Equal(t, "2.5", pynum.Max(i(0), f(2.5)).String())
}

// round(x, 2) and str() of a float, as calculate and the retail price
// differences use them.
func TestRound2AndFloatRepr(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{2.675, "2.67"}, {0.125, "0.12"}, {-17.985, "-17.98"}, {1200, "1200.0"}, {10.0 / 3, "3.33"},
		{-0.001, "-0.0"}, {1e16, "1e+16"}, {1.5e16, "1.5e+16"}, {0.0001, "0.0"}, {220, "220.0"}, {0.25 * 0.8, "0.2"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"},
	}
	for _, tt := range tests {
		r, err := pyvalue.Round2(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, r.String(), "%v", tt.in)
	}
	assert.Equal(t, "1e-05", pyvalue.Repr(0.00001))
	assert.Equal(t, "0.0001", pyvalue.Repr(0.0001))
}
