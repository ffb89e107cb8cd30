package tau2tools

import (
	"errors"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// CalculateChars are the only characters calculate accepts.
const CalculateChars = "0123456789+-*/(). "

// Messages of calculate's value_error results. Every failure other than
// a bad character reads InvalidExpression followed by the text of the
// Python exception.
const (
	MessageInvalidChars = "Invalid characters in expression"
	InvalidExpression   = "Invalid expression: "
)

// Texts of the Python exceptions calculate reports.
const (
	msgSyntax          = "invalid syntax (<string>, line 1)"
	msgSyntaxEmpty     = "invalid syntax (<string>, line 0)"
	msgRecursion       = "maximum recursion depth exceeded during compilation"
	msgDivisionByZero  = "division by zero"
	msgZeroNegative    = "0.0 cannot be raised to a negative power"
	msgZeroComplex     = "0.0 to a negative or complex power"
	msgFloatRange      = "(34, 'Numerical result out of range')"
	msgComplexOverflow = "complex exponentiation"
	msgIndexOverflow   = "cannot fit 'int' into an index-sized integer"
	msgIntTooLarge     = "integer too large to compute"
	msgIntStrLimit     = pyjson.MsgIntToStr
)

// Limits. Python refuses integer literals above 4300 digits and nesting
// deeper than 200 parentheses at parse time, and gives up compiling
// expressions nested 2994 operators deep. Integers above maxIntBits, and
// integer results adding up to more than maxWorkBits, are refused where
// Python would go on computing (see Calculate).
const (
	maxLiteralDigits = pyjson.MaxIntDigits
	maxParenDepth    = 200
	maxDepth         = 2993
	maxIntBits       = 1 << 17
	maxWorkBits      = 1 << 22
)

// CalcError is a failed calculation. Its message is what the calculate
// tool reports: MessageInvalidChars, or InvalidExpression followed by the
// Python exception's text.
type CalcError struct {
	Msg string
}

func (e *CalcError) Error() string { return e.Msg }

// pyErr is a Python exception raised while parsing or evaluating.
type pyErr struct{ msg string }

func (e *pyErr) Error() string { return e.msg }

func raise(msg string) error { return &pyErr{msg: msg} }

// Calculate evaluates expression as the tau2 calculate tool does: the
// expression may only hold the characters of CalculateChars; it is then
// evaluated as a Python expression (ints of any size, floats, / always a
// float, // floor division, ** powers, unary + and -, parentheses), the
// value is converted with float(), rounded with round(x, 2), and returned
// as Python's str() of that float: "1200.0", "3.33", "-0.0", "1e+16",
// "inf".
//
// The error, a *CalcError, carries the tool's message:
//
//   - "Invalid characters in expression" for any other character;
//   - "Invalid expression: division by zero" for every division by zero
//     (/ and //, ints, floats and complex numbers alike);
//   - "Invalid expression: invalid syntax (<string>, line 1)" for every
//     syntax error ("line 0" when the expression is empty);
//   - "Invalid expression: " and the text CPython 3.11 gives for the rest:
//     "int too large to convert to float", "0.0 cannot be raised to a
//     negative power", "(34, 'Numerical result out of range')", "float()
//     argument must be a string or a real number, not 'complex'" (a
//     negative number to a fractional power), "'int' object is not
//     callable" ("2(3)"), the TypeErrors of the empty tuple "()" and of
//     the Ellipsis "...", both of which the character set allows.
//
// Python would go on computing integers of any size (2**10**9 takes it
// minutes); Calculate refuses, with "Invalid expression: integer too large
// to compute", an integer above 2**17 bits (39,457 digits) and an
// expression whose integers add up to more than 2**22 bits, so that no
// expression costs more than a few milliseconds.
func Calculate(expression string) (string, error) {
	for _, r := range expression {
		if !strings.ContainsRune(CalculateChars, r) {
			return "", &CalcError{Msg: MessageInvalidChars}
		}
	}
	v, err := evalExpression(expression)
	if err == nil {
		var f float64
		if f, err = v.toFloat(); err == nil {
			rounded, _ := pyvalue.Round2(f) // a float never fails
			return rounded.String(), nil
		}
	}
	var pe *pyErr
	if errors.As(err, &pe) {
		return "", &CalcError{Msg: InvalidExpression + pe.msg}
	}
	var exc *pyvalue.Error
	if errors.As(err, &exc) {
		return "", &CalcError{Msg: InvalidExpression + exc.Str()}
	}
	return "", &CalcError{Msg: InvalidExpression + err.Error()}
}

// evalExpression parses the whole expression first (a syntax error wins
// over any runtime error, as in Python), then evaluates it.
func evalExpression(src string) (value, error) {
	// eval() strips leading spaces and tabs from a source string.
	src = strings.TrimLeft(src, " \t")
	if strings.TrimSpace(src) == "" {
		return value{}, raise(msgSyntaxEmpty)
	}
	toks, err := tokenize(src)
	if err != nil {
		return value{}, err
	}
	p := parser{toks: toks}
	n, err := p.parse()
	if err != nil {
		return value{}, err
	}
	return n.eval(&budget{left: maxWorkBits})
}
