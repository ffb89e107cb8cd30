package tau2tools_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
)

func num(t *testing.T, v any) tau2tools.Num {
	t.Helper()
	n, err := tau2tools.NumOf(v)
	require.NoError(t, err)
	return n
}

func TestNumOfKeepsIntAndFloatApart(t *testing.T) {
	tests := []struct {
		in      any
		isFloat bool
		str     string
	}{
		{json.Number("163"), false, "163"},
		{json.Number("163.0"), true, "163.0"},
		{json.Number("1e2"), true, "100.0"},
		{json.Number("-0"), false, "0"},
		{json.Number("1e400"), true, "inf"},
		{1.5, true, "1.5"},
		{float32(0.5), true, "0.5"},
		{int(7), false, "7"},
		{int64(-7), false, "-7"},
		{uint8(3), false, "3"},
		{true, false, "1"},
		{false, false, "0"},
	}
	for _, tt := range tests {
		n := num(t, tt.in)
		assert.Equal(t, tt.isFloat, n.IsFloat(), "%v", tt.in)
		assert.Equal(t, tt.str, n.String(), "%v", tt.in)
	}
	for _, bad := range []any{nil, "12", []any{}, map[string]any{}, json.Number("x"), json.Number("99999999999999999999"), uint64(math.MaxUint64)} {
		_, err := tau2tools.NumOf(bad)
		assert.Error(t, err, "%v", bad)
	}
}

func TestNumArithmeticFollowsPython(t *testing.T) {
	i, f := tau2tools.Int, tau2tools.Float
	sum, err := i(163).Sub(i(50))
	require.NoError(t, err)
	assert.Equal(t, json.Number("113"), sum.Value())
	sum, err = f(163).Sub(i(50))
	require.NoError(t, err)
	assert.Equal(t, json.Number("113.0"), sum.Value(), "a float stays a float, even whole")
	prod, err := i(3).Mul(f(0.1))
	require.NoError(t, err)
	assert.Equal(t, "0.30000000000000004", prod.String())
	neg, err := f(0).Neg()
	require.NoError(t, err)
	assert.Equal(t, "-0.0", neg.String())
	neg, err = i(0).Neg()
	require.NoError(t, err)
	assert.Equal(t, "0", neg.String())

	_, err = i(math.MaxInt64).Add(i(1))
	assert.ErrorIs(t, err, tau2tools.ErrIntRange)
	_, err = i(math.MinInt64).Sub(i(1))
	assert.ErrorIs(t, err, tau2tools.ErrIntRange)
	_, err = i(math.MaxInt64).Mul(i(2))
	assert.ErrorIs(t, err, tau2tools.ErrIntRange)
	_, err = i(math.MinInt64).Mul(i(-1))
	assert.ErrorIs(t, err, tau2tools.ErrIntRange)
	_, err = i(math.MinInt64).Neg()
	assert.ErrorIs(t, err, tau2tools.ErrIntRange)
	p, err := i(-4).Mul(i(5))
	require.NoError(t, err)
	assert.Equal(t, "-20", p.String())
}

func TestNumComparisonsAreExact(t *testing.T) {
	i, f := tau2tools.Int, tau2tools.Float
	assert.True(t, i(2).Equal(f(2)))
	assert.True(t, f(2).Equal(i(2)))
	// 2**53 + 1 is not the float 2**53, although float64(2**53+1) is.
	assert.False(t, i(1<<53+1).Equal(f(1<<53)))
	assert.True(t, f(1<<53).Less(i(1<<53+1)))
	assert.True(t, i(1<<62).Less(f(1e19)))
	assert.True(t, f(-1e19).Less(i(math.MinInt64)))
	assert.True(t, i(2).Less(f(2.5)))
	assert.False(t, f(2.5).Less(i(2)))
	assert.True(t, i(-3).Less(f(-2.5)))
	nan := f(math.NaN())
	assert.False(t, nan.Equal(nan))
	assert.False(t, nan.Less(i(1)))
	assert.False(t, i(1).Less(nan))
	assert.True(t, i(0).IsZero())
	assert.True(t, f(math.Copysign(0, -1)).IsZero())
	// max(0, x) returns 0 itself when x == 0, as Python's max keeps the
	// first of equals.
	assert.Equal(t, "0", tau2tools.Max(i(0), f(0)).String())
	assert.Equal(t, "2.5", tau2tools.Max(i(0), f(2.5)).String())
}

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
		assert.Equal(t, tt.want, tau2tools.FloatRepr(tau2tools.Round2(tt.in)), "%v", tt.in)
	}
	assert.Equal(t, "1e-05", tau2tools.FloatRepr(0.00001))
	assert.Equal(t, "0.0001", tau2tools.FloatRepr(0.0001))
	assert.Equal(t, "inf", tau2tools.Float(math.Inf(1)).String())
	assert.Equal(t, math.Inf(1), tau2tools.Float(math.Inf(1)).Value())
}
