package pyvalue

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// MaxLiteralDepth is the deepest nesting of brackets [ParseLiteral] reads:
// CPython 3.11's tokenizer refuses a 201st open bracket ("too many nested
// parentheses").
const MaxLiteralDepth = 200

// ParseLiteral reads the text of a Python literal — what repr() writes for
// a list or dict of the values json.loads makes, and what NeMo's bridge
// eval()s — without evaluating anything. It accepts:
//
//   - None, True, False;
//   - str literals in single, double or triple quotes, with the prefixes
//     r, u, b, rb and br in either case, Python's escapes (\\, \', \",
//     \a \b \f \n \r \t \v, \ooo, \xhh, \uXXXX, \UXXXXXXXX, a
//     backslash-newline; an unknown escape keeps its backslash), and
//     adjacent literals joined ('a' 'b' is 'ab');
//   - ints (decimal, 0x, 0o, 0b, with single underscores between digits)
//     and floats (1.5, 1., .5, 1e-05, 1E+16), with any number of unary +
//     and - before them (on True and False too, which count as 1 and 0);
//   - lists [...], tuples (...) and parenthesised values, dicts {k: v}
//     with str keys, trailing commas allowed;
//   - spaces, tabs, form feeds and newlines between tokens, and comments.
//
// Values come out as pyvalue values: nil, bool, string (a lone surrogate
// from \udXXX as its WTF-8 bytes), json.Number for an int (its decimal
// digits), float64, []byte for bytes, []any for a list or a tuple, and
// [Dict] for a dict, in the text's order (a repeated key keeps its first
// position and takes its last value, as a dict built by eval does).
//
// Everything else is an error, never a panic: names (inf, nan, x — a
// NameError for eval too), calls, operators other than unary + and -,
// sets, complex numbers, f-strings, \N{...} escapes, dict keys that are
// not str, an int of more than 4,300 decimal digits (CPython's limit),
// invalid UTF-8 or a NUL in the text, and nesting deeper than
// [MaxLiteralDepth]. Errors are *[Error] values of type SyntaxError,
// ValueError or NameError, as eval would raise them, with the byte
// offset of the problem.
func ParseLiteral(text string) (any, error) {
	if !utf8.ValidString(text) {
		return nil, Raise("SyntaxError", "source is not valid UTF-8")
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		return nil, Raise("SyntaxError", "source code string cannot contain null bytes")
	}
	p := literalParser{src: text}
	v, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return nil, p.fail("unexpected %s after the value", p.describe())
	}
	return v, nil
}

type literalParser struct {
	src string
	pos int
}

func (p *literalParser) fail(format string, args ...any) error {
	return Raise("SyntaxError", "%s (at byte %d)", fmt.Sprintf(format, args...), p.pos)
}

// describe names the token at pos for an error.
func (p *literalParser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return fmt.Sprintf("%q", r)
}

// skipSpace skips whitespace, backslash-newline continuations and
// comments.
func (p *literalParser) skipSpace() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; c {
		case ' ', '\t', '\n', '\r', '\f':
			p.pos++
		case '\\':
			if strings.HasPrefix(p.src[p.pos:], "\\\n") {
				p.pos += 2
			} else if strings.HasPrefix(p.src[p.pos:], "\\\r\n") {
				p.pos += 3
			} else {
				return
			}
		case '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '\r' {
				p.pos++
			}
		default:
			return
		}
	}
}

// skipLineSpace skips the whitespace that does not end a line outside
// brackets: spaces, tabs, form feeds and backslash-newline continuations.
func (p *literalParser) skipLineSpace() {
	for p.pos < len(p.src) {
		switch {
		case p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\f':
			p.pos++
		case strings.HasPrefix(p.src[p.pos:], "\\\n"):
			p.pos += 2
		case strings.HasPrefix(p.src[p.pos:], "\\\r\n"):
			p.pos += 3
		default:
			return
		}
	}
}

// expr reads one value, unary signs included; depth counts the open
// brackets around it.
func (p *literalParser) expr(depth int) (any, error) {
	p.skipSpace()
	neg, signs := false, 0
	for p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '+') {
		if p.src[p.pos] == '-' {
			neg = !neg
		}
		signs++
		p.pos++
		p.skipSpace()
	}
	start := p.pos
	v, err := p.atom(depth)
	if err != nil || signs == 0 {
		return v, err
	}
	switch x := v.(type) {
	case bool:
		n := int64(0)
		if x {
			n = 1
		}
		if neg {
			n = -n
		}
		return json.Number(fmt.Sprint(n)), nil
	case float64:
		if neg {
			return -x, nil
		}
		return x, nil
	case json.Number:
		if neg {
			if x[0] == '-' {
				return x[1:], nil
			}
			if x == "0" {
				return x, nil
			}
			return "-" + x, nil
		}
		return x, nil
	}
	p.pos = start
	return nil, Raise("TypeError", "bad operand type for unary %s: '%s'", map[bool]string{true: "-", false: "+"}[neg], TypeName(v))
}

func (p *literalParser) atom(depth int) (any, error) {
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '[':
		return p.sequence(depth, ']')
	case c == '(':
		return p.sequence(depth, ')')
	case c == '{':
		return p.dict(depth)
	case c == '\'' || c == '"':
		return p.strings(depth)
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
		return p.number()
	case isNameStart(c):
		start := p.pos
		for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
			p.pos++
		}
		name := p.src[start:p.pos]
		if p.pos < len(p.src) && (p.src[p.pos] == '\'' || p.src[p.pos] == '"') && isStringPrefix(name) {
			p.pos = start
			return p.strings(depth)
		}
		switch name {
		case "None":
			return nil, nil
		case "True":
			return true, nil
		case "False":
			return false, nil
		}
		p.pos = start
		return nil, Raise("NameError", "name '%s' is not defined (at byte %d)", name, start)
	case c >= 0x80:
		return nil, p.fail("invalid character %s", p.describe())
	}
	return nil, p.fail("unexpected %s", p.describe())
}

func (p *literalParser) open(depth int) error {
	if depth >= MaxLiteralDepth {
		return p.fail("too many nested parentheses")
	}
	p.pos++
	return nil
}

// sequence reads a list ([...]) or a tuple or parenthesised value ((...)).
func (p *literalParser) sequence(depth int, closer byte) (any, error) {
	if err := p.open(depth); err != nil {
		return nil, err
	}
	items := []any{}
	sawComma := false
	for {
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == closer {
			p.pos++
			break
		}
		if len(items) > 0 && !sawComma {
			return nil, p.fail("expected ',' or %q, got %s", closer, p.describe())
		}
		v, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.skipSpace()
		sawComma = p.pos < len(p.src) && p.src[p.pos] == ','
		if sawComma {
			p.pos++
		}
	}
	if closer == ')' && len(items) == 1 && !sawComma {
		return items[0], nil // (x) is x, not a tuple
	}
	return items, nil
}

// dict reads {k: v, ...}; {a, b} would be a set, which is refused.
func (p *literalParser) dict(depth int) (any, error) {
	if err := p.open(depth); err != nil {
		return nil, err
	}
	d := Dict{}
	at := map[string]int{}
	sawComma := false
	for {
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return d, nil
		}
		if len(d) > 0 && !sawComma {
			return nil, p.fail("expected ',' or '}', got %s", p.describe())
		}
		keyAt := p.pos
		k, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			if p.pos < len(p.src) && (p.src[p.pos] == ',' || p.src[p.pos] == '}') && len(d) == 0 {
				return nil, p.fail("sets are not supported")
			}
			return nil, p.fail("expected ':', got %s", p.describe())
		}
		key, ok := k.(string)
		if !ok {
			p.pos = keyAt
			return nil, p.fail("dict key of type %s: only str keys are supported", TypeName(k))
		}
		p.pos++
		v, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if i, ok := at[key]; ok {
			d[i].Value = v
		} else {
			at[key] = len(d)
			d = append(d, Item{Key: key, Value: v})
		}
		p.skipSpace()
		sawComma = p.pos < len(p.src) && p.src[p.pos] == ','
		if sawComma {
			p.pos++
		}
	}
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || isDigit(c) }

func isStringPrefix(name string) bool {
	switch strings.ToLower(name) {
	case "r", "u", "b", "rb", "br":
		return true
	}
	return false
}

// number reads an int or a float literal.
func (p *literalParser) number() (any, error) {
	start := p.pos
	src := p.src
	if src[p.pos] == '0' && p.pos+1 < len(src) {
		base := 0
		switch src[p.pos+1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			p.pos += 2
			digits, err := p.digits(base, true)
			if err != nil {
				return nil, err
			}
			if p.pos < len(src) && isNameChar(src[p.pos]) {
				return nil, p.fail("invalid digit %s in a base-%d literal", p.describe(), base)
			}
			n, _ := new(big.Int).SetString(digits, base)
			return p.intResult(n.String(), start)
		}
	}
	intPart := ""
	if src[p.pos] != '.' {
		var err error
		if intPart, err = p.digits(10, false); err != nil {
			return nil, err
		}
	}
	isFloat := false
	text := intPart
	if p.pos < len(src) && src[p.pos] == '.' {
		isFloat = true
		p.pos++
		frac := ""
		if p.pos < len(src) && isDigit(src[p.pos]) {
			var err error
			if frac, err = p.digits(10, false); err != nil {
				return nil, err
			}
		}
		text += "." + frac
	}
	if p.pos < len(src) && (src[p.pos] == 'e' || src[p.pos] == 'E') {
		save := p.pos
		p.pos++
		sign := ""
		if p.pos < len(src) && (src[p.pos] == '+' || src[p.pos] == '-') {
			sign = src[p.pos : p.pos+1]
			p.pos++
		}
		if p.pos >= len(src) || !isDigit(src[p.pos]) {
			p.pos = save
			return nil, p.fail("invalid decimal literal")
		}
		exp, err := p.digits(10, false)
		if err != nil {
			return nil, err
		}
		isFloat = true
		text += "e" + sign + exp
	}
	if p.pos < len(src) && (src[p.pos] == 'j' || src[p.pos] == 'J') {
		return nil, p.fail("complex numbers are not supported")
	}
	if p.pos < len(src) && isNameChar(src[p.pos]) {
		return nil, p.fail("invalid decimal literal")
	}
	if isFloat {
		if text[0] == '.' {
			text = "0" + text
		}
		f, err := ParseFloat(text)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	if len(intPart) > 1 && strings.Trim(intPart, "0") != "" && intPart[0] == '0' {
		p.pos = start
		return nil, p.fail("leading zeros in decimal integer literals are not permitted")
	}
	return p.intResult(intPart, start)
}

// intResult returns the decimal digits of an int literal as a
// json.Number, without leading zeros.
func (p *literalParser) intResult(digits string, start int) (any, error) {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		digits = "0"
	}
	if len(digits) > pyjson.MaxIntDigits {
		p.pos = start
		return nil, Raise("SyntaxError", "%s (at byte %d)", pyjson.MsgStrToInt(len(digits)), start)
	}
	return json.Number(digits), nil
}

// digits reads digits of base with single underscores between them (and,
// after a base prefix, one before the first); at least one digit.
func (p *literalParser) digits(base int, afterPrefix bool) (string, error) {
	var b strings.Builder
	src := p.src
	for {
		if p.pos < len(src) && src[p.pos] == '_' {
			if b.Len() == 0 && !afterPrefix || p.pos+1 >= len(src) || digitValue(src[p.pos+1]) >= base {
				return "", p.fail("invalid literal: misplaced '_'")
			}
			p.pos++
		}
		if p.pos >= len(src) || digitValue(src[p.pos]) >= base {
			break
		}
		b.WriteByte(src[p.pos])
		p.pos++
		afterPrefix = false
	}
	if b.Len() == 0 {
		return "", p.fail("invalid literal: no digits")
	}
	return b.String(), nil
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// strings reads one or more adjacent string literals and joins them; str
// and bytes do not mix.
func (p *literalParser) strings(depth int) (any, error) {
	var out []byte
	first, isBytes := true, false
	for {
		start := p.pos
		prefix := ""
		for p.pos < len(p.src) && isNameStart(p.src[p.pos]) {
			p.pos++
		}
		prefix = strings.ToLower(p.src[start:p.pos])
		if prefix != "" && !isStringPrefix(prefix) || p.pos >= len(p.src) || p.src[p.pos] != '\'' && p.src[p.pos] != '"' {
			p.pos = start
			if first {
				return nil, p.fail("invalid string prefix")
			}
			break
		}
		b := strings.Contains(prefix, "b")
		if !first && b != isBytes {
			p.pos = start
			return nil, p.fail("cannot mix bytes and nonbytes literals")
		}
		isBytes = b
		var err error
		if out, err = p.stringBody(out, strings.Contains(prefix, "r"), b); err != nil {
			return nil, err
		}
		first = false
		save := p.pos
		if depth == 0 {
			p.skipLineSpace() // outside brackets a newline ends the expression
		} else {
			p.skipSpace()
		}
		if p.pos >= len(p.src) || !(p.src[p.pos] == '\'' || p.src[p.pos] == '"' || isNameStart(p.src[p.pos])) {
			p.pos = save
			break
		}
		// A name that is not a string prefix ends the run (an error the caller reports).
		if isNameStart(p.src[p.pos]) {
			q := p.pos
			for q < len(p.src) && isNameChar(p.src[q]) {
				q++
			}
			if q >= len(p.src) || p.src[q] != '\'' && p.src[q] != '"' || !isStringPrefix(p.src[p.pos:q]) {
				p.pos = save
				break
			}
		}
	}
	if isBytes {
		if out == nil {
			out = []byte{}
		}
		return out, nil
	}
	return string(out), nil
}

// stringBody reads one quoted body, from its opening quote, appending its
// value to dst.
func (p *literalParser) stringBody(dst []byte, raw, isBytes bool) ([]byte, error) {
	src := p.src
	open := p.pos
	q := src[p.pos]
	triple := strings.HasPrefix(src[p.pos:], strings.Repeat(string(q), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	for {
		if p.pos >= len(src) {
			p.pos = open
			if triple {
				return nil, p.fail("unterminated triple-quoted string literal")
			}
			return nil, p.fail("unterminated string literal")
		}
		c := src[p.pos]
		switch {
		case c == q && (!triple || strings.HasPrefix(src[p.pos:], strings.Repeat(string(q), 3))):
			if triple {
				p.pos += 3
			} else {
				p.pos++
			}
			return dst, nil
		case (c == '\n' || c == '\r') && !triple:
			p.pos = open
			return nil, p.fail("unterminated string literal")
		case c == '\\':
			var err error
			if dst, err = p.escape(dst, raw, isBytes); err != nil {
				return nil, err
			}
		case c >= 0x80:
			if isBytes {
				return nil, p.fail("bytes can only contain ASCII literal characters")
			}
			_, size := utf8.DecodeRuneInString(src[p.pos:])
			dst = append(dst, src[p.pos:p.pos+size]...)
			p.pos += size
		case c == '\r':
			// Python reads \r\n and \r in source as \n.
			dst = append(dst, '\n')
			p.pos++
			if p.pos < len(src) && src[p.pos] == '\n' {
				p.pos++
			}
		default:
			dst = append(dst, c)
			p.pos++
		}
	}
}

// escape reads the escape sequence at pos (a backslash) inside a string.
func (p *literalParser) escape(dst []byte, raw, isBytes bool) ([]byte, error) {
	src := p.src
	at := p.pos
	if p.pos+1 >= len(src) {
		p.pos++
		return dst, nil // the missing closing quote is reported by the caller
	}
	c := src[p.pos+1]
	if raw {
		// The backslash stays, and the character after it does not end the string.
		if c == '\r' || c >= 0x80 {
			dst = append(dst, '\\')
			p.pos++
			return dst, nil
		}
		p.pos += 2
		return append(dst, '\\', c), nil
	}
	p.pos += 2
	switch c {
	case '\n':
		return dst, nil
	case '\r':
		if p.pos < len(src) && src[p.pos] == '\n' {
			p.pos++
		}
		return dst, nil
	case '\\', '\'', '"':
		return append(dst, c), nil
	case 'a':
		return append(dst, '\a'), nil
	case 'b':
		return append(dst, '\b'), nil
	case 'f':
		return append(dst, '\f'), nil
	case 'n':
		return append(dst, '\n'), nil
	case 'r':
		return append(dst, '\r'), nil
	case 't':
		return append(dst, '\t'), nil
	case 'v':
		return append(dst, '\v'), nil
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for i := 0; i < 2 && p.pos < len(src) && src[p.pos] >= '0' && src[p.pos] <= '7'; i++ {
			v = v*8 + int(src[p.pos]-'0')
			p.pos++
		}
		if isBytes {
			if v > 0xff {
				p.pos = at
				return nil, p.fail("octal escape value > 0o377 in bytes")
			}
			return append(dst, byte(v)), nil
		}
		return utf8.AppendRune(dst, rune(v)), nil
	case 'x':
		return p.hexEscape(dst, at, 2, isBytes)
	case 'u', 'U', 'N':
		if isBytes {
			// Not escapes in bytes: the backslash stays.
			return append(dst, '\\', c), nil
		}
		if c == 'N' {
			p.pos = at
			return nil, p.fail("\\N{...} escapes are not supported")
		}
		n := 4
		if c == 'U' {
			n = 8
		}
		return p.hexEscape(dst, at, n, false)
	}
	if c >= 0x80 {
		// An unknown escape keeps its backslash; the character is copied whole.
		p.pos--
		return append(dst, '\\'), nil
	}
	return append(dst, '\\', c), nil
}

// hexEscape reads the n hex digits of \x, \u or \U at pos.
func (p *literalParser) hexEscape(dst []byte, at, n int, isBytes bool) ([]byte, error) {
	src := p.src
	if p.pos+n > len(src) {
		p.pos = at
		return nil, p.fail("truncated \\%c escape", src[at+1])
	}
	v := 0
	for i := 0; i < n; i++ {
		d := digitValue(src[p.pos+i])
		if d >= 16 {
			p.pos = at
			return nil, p.fail("truncated \\%c escape", src[at+1])
		}
		v = v*16 + d
	}
	p.pos += n
	switch {
	case isBytes:
		return append(dst, byte(v)), nil
	case v > utf8.MaxRune:
		p.pos = at
		return nil, p.fail("illegal Unicode character")
	case v >= 0xd800 && v <= 0xdfff:
		return pyjson.AppendSurrogate(dst, rune(v)), nil
	}
	return utf8.AppendRune(dst, rune(v)), nil
}
