package tau2tools_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
)

// calc returns calculate's outcome as one string: the result, or the
// error message.
func calc(expr string) string {
	out, err := tau2tools.Calculate(expr)
	if err != nil {
		return err.Error()
	}
	return out
}

const (
	syntaxErr = "Invalid expression: invalid syntax (<string>, line 1)"
	zeroDiv   = "Invalid expression: division by zero"
	badChars  = "Invalid characters in expression"
)

func TestCalculateReferenceVectors(t *testing.T) {
	// The vectors of the reference notes (7.4): the gold data's
	// expressions, 10/3, and refused characters.
	tests := []struct{ expr, want string }{
		{"2 * ((350 - 122) + (499 - 127))", "1200.0"},
		{"3131.1 + 4777.75 + 367.38", "8276.23"},
		{"155.33 - 147.05 + 268.77 - 235.13", "41.92"},
		{"200.8 + 96.35 + 193.38 + 231.37 + 196.53", "918.43"},
		{"466.75 + 288.82 + 135.24 + 193.38 + 46.66", "1130.85"},
		{"135.24 - 153.23", "-17.99"},
		{"652.61 - 642.72", "9.89"},
		{"652.61 + 473.43", "1126.04"},
		{"2623.69 - 1126.04", "1497.65"},
		{"622.12 + 473.43", "1095.55"},
		{"2623.69 - 1095.55", "1528.14"},
		{"258.97 - 232.49", "26.48"},
		{"256.67 - 226.49", "30.18"},
		{"1319.43 - 302.67 + 271.89", "1288.65"},
		{"10/3", "3.33"},
		{"abc", badChars},
		{"1e5", badChars},
		{"2 % 3", badChars},
		{"1_000", badChars},
		{"2\t+ 2", badChars},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, calc(tt.expr), tt.expr)
	}
}

func TestCalculatePythonSemantics(t *testing.T) {
	// Expected values are CPython 3.11's, normalised as documented:
	// syntax errors read syntaxErr, divisions by zero read zeroDiv.
	tests := []struct{ expr, want string }{
		// ints and floats, / always a float, // floors, ** powers
		{"1 + 2", "3.0"}, {"7 // 2", "3.0"}, {"-7 // 2", "-4.0"}, {"7 // -2", "-4.0"},
		{"-9.0 // 2", "-5.0"}, {"5.5 // -2", "-3.0"}, {"7.5 // 2", "3.0"},
		{"2 ** 3 ** 2", "512.0"}, {"-2 ** 2", "-4.0"}, {"(-2) ** 2", "4.0"},
		{"2 ** -1", "0.5"}, {"(-2) ** -1", "-0.5"}, {"2 ** 0.5", "1.41"}, {"2 ** 0.5 ** 2", "1.19"},
		{"1000000 ** 2.5", "1000000000000000.0"}, {"1.05 ** 12", "1.8"}, {"(-8.0) ** 3", "-512.0"},
		{"1 + -+-2", "3.0"}, {"--1", "1.0"}, {"0.1 + 0.2", "0.3"}, {"1/3*3", "1.0"},
		{"2/3", "0.67"}, {"-1/3", "-0.33"}, {"-0.001", "-0.0"}, {"0 / -5", "-0.0"},
		// round(x, 2) is half-even on the exact binary value
		{"2.675", "2.67"}, {"0.125", "0.12"}, {"-17.985", "-17.98"}, {"1.005 * 1000", "1005.0"},
		{"1234567.125", "1234567.12"}, {"99999999999999.995", "100000000000000.0"},
		// literals
		{".5", "0.5"}, {"1.", "1.0"}, {"00", "0.0"}, {"00.5", "0.5"}, {"0123.4", "123.4"},
		{"   1 + 1", "2.0"}, {"1+ (2)", "3.0"},
		// big integers, float repr
		{"2 ** 63", "9.223372036854776e+18"}, {"-2 ** 63", "-9.223372036854776e+18"},
		{"9007199254740993 / 1", "9007199254740992.0"}, {"9007199254740993 * 1.0", "9007199254740992.0"},
		{"123456789012345678901234567890 / 3", "4.115226300411523e+28"},
		{"10 ** 309 / 10 ** 308", "10.0"}, {"1 / 10 ** 400", "0.0"},
		{"10 ** 16 * 1.0", "1e+16"}, {"123456789012345678.0", "1.2345678901234568e+17"},
		{"0.00001", "0.0"}, {"10 ** 308 * 10.0", "inf"}, {"2.0 ** -1080", "0.0"},
		// division by zero, every kind
		{"1/0", zeroDiv}, {"1.0/0", zeroDiv}, {"1//0", zeroDiv}, {"1.0//0.0", zeroDiv},
		{"1 / ((-8) ** 0.5 * 0)", zeroDiv},
		{"0 ** -1", "Invalid expression: 0.0 cannot be raised to a negative power"},
		{"0.0 ** -1", "Invalid expression: 0.0 cannot be raised to a negative power"},
		{"0 ** ((-8) ** 0.5)", "Invalid expression: 0.0 to a negative or complex power"},
		// overflow
		{"10 ** 400", "Invalid expression: int too large to convert to float"},
		{"10 ** 309 * 1.0", "Invalid expression: int too large to convert to float"},
		{"10 ** 400 / 3", "Invalid expression: integer division result too large for a float"},
		{"10.0 ** 400", "Invalid expression: (34, 'Numerical result out of range')"},
		{"2.0 ** 1024", "Invalid expression: (34, 'Numerical result out of range')"},
		{"((-8) ** 0.5) ** 1000", "Invalid expression: complex exponentiation"},
		{"() * 10 ** 100", "Invalid expression: cannot fit 'int' into an index-sized integer"},
		// complex, the empty tuple, Ellipsis, calls
		{"(-8) ** 0.5", "Invalid expression: float() argument must be a string or a real number, not 'complex'"},
		{"(-8) ** 0.5 // 2", "Invalid expression: unsupported operand type(s) for //: 'complex' and 'int'"},
		{"()", "Invalid expression: float() argument must be a string or a real number, not 'tuple'"},
		{"() * 3", "Invalid expression: float() argument must be a string or a real number, not 'tuple'"},
		{"() + 1", `Invalid expression: can only concatenate tuple (not "int") to tuple`},
		{"1 + ()", "Invalid expression: unsupported operand type(s) for +: 'int' and 'tuple'"},
		{"() ** 2", "Invalid expression: unsupported operand type(s) for ** or pow(): 'tuple' and 'int'"},
		{"() * 2.0", "Invalid expression: can't multiply sequence by non-int of type 'float'"},
		{"-()", "Invalid expression: bad operand type for unary -: 'tuple'"},
		{"...", "Invalid expression: float() argument must be a string or a real number, not 'ellipsis'"},
		{"... + 1", "Invalid expression: unsupported operand type(s) for +: 'ellipsis' and 'int'"},
		{"1(2)", "Invalid expression: 'int' object is not callable"},
		{"1.5(2)", "Invalid expression: 'float' object is not callable"},
		{"(1)(*())", "Invalid expression: 'int' object is not callable"},
		{"(1)(*2)", "Invalid expression: 1 argument after * must be an iterable, not int"},
		{"(1.5)(*2)", "Invalid expression: 1.5 argument after * must be an iterable, not int"},
		{"(...)(**2)", "Invalid expression: Ellipsis argument after ** must be a mapping, not int"},
		{"(1 + 2 * (-1) ** 0.5 * 0)(*2)", "Invalid expression: (1+0j) argument after * must be an iterable, not int"},
		{"(1/0)(2)", zeroDiv}, {"(1)(1/0)", zeroDiv},
		// syntax errors, all worded alike; a syntax error wins over any
		// runtime error
		{"", "Invalid expression: invalid syntax (<string>, line 0)"},
		{"   ", "Invalid expression: invalid syntax (<string>, line 0)"},
		{"1 +", syntaxErr}, {"(1+2", syntaxErr}, {"1)", syntaxErr}, {"1 2", syntaxErr}, {"**2", syntaxErr},
		{"*1", syntaxErr}, {"(*1)", syntaxErr}, {"2*/3", syntaxErr}, {"1.2.3", syntaxErr}, {"1..2", syntaxErr},
		{"..5", syntaxErr}, {"....", syntaxErr}, {"1 .5", syntaxErr}, {"01", syntaxErr}, {"1/0 +", syntaxErr},
		{strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201), syntaxErr},
		{strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200), "1.0"},
		{strings.Repeat("1", 4301), syntaxErr},
		{strings.Repeat("0", 5000), "0.0"},
		// nesting Python's compiler gives up on
		{strings.Repeat("1+", 2993) + "1", "2994.0"},
		{strings.Repeat("1+", 2994) + "1", "Invalid expression: maximum recursion depth exceeded during compilation"},
		{strings.Repeat("-", 100000) + "1", "Invalid expression: maximum recursion depth exceeded during compilation"},
		// integers Python would take minutes to compute
		{"9 ** 9 ** 9", "Invalid expression: integer too large to compute"},
	}
	for _, tt := range tests {
		name := tt.expr
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		assert.Equal(t, tt.want, calc(tt.expr), name)
	}
}

// TestCalculateVectors checks 1,192 random expressions whose expected
// outcome CPython computed (testdata/calculate_vectors.json).
func TestCalculateVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/calculate_vectors.json")
	require.NoError(t, err)
	var doc struct {
		Vectors [][2]string `json:"vectors"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.NotEmpty(t, doc.Vectors)
	for _, v := range doc.Vectors {
		assert.Equal(t, v[1], calc(v[0]), v[0])
	}
}

func TestCalculateErrorType(t *testing.T) {
	_, err := tau2tools.Calculate("1/0")
	var ce *tau2tools.CalcError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, zeroDiv, ce.Msg)
}
