package tau2tools

import (
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// tokKind is the kind of a calculate token.
type tokKind uint8

const (
	tokNum      tokKind = iota // a number literal
	tokOp                      // + - * / ** // ( ) .
	tokEllipsis                // ...
)

type token struct {
	kind tokKind
	text string
	num  value // tokNum only
}

// tokenize splits src as Python's tokenizer would, restricted to the
// characters calculate accepts. Number literals are converted here, as
// Python converts them at compile time: an integer literal with leading
// zeros ("012") or more than 4300 significant digits is a syntax error,
// and so is nesting deeper than 200 parentheses or a parenthesis left
// unmatched.
func tokenize(src string) ([]token, error) {
	var toks []token
	depth := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ':
			i++
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := i
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			isFloat := j < len(src) && src[j] == '.'
			if isFloat {
				j++
				for j < len(src) && isDigit(src[j]) {
					j++
				}
			}
			v, err := literal(src[i:j], isFloat)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tokNum, text: src[i:j], num: v})
			i = j
		case c == '.' && strings.HasPrefix(src[i:], "..."):
			toks = append(toks, token{kind: tokEllipsis, text: "..."})
			i += 3
		case (c == '*' || c == '/') && i+1 < len(src) && src[i+1] == c:
			toks = append(toks, token{kind: tokOp, text: src[i : i+2]})
			i += 2
		default:
			switch c {
			case '(':
				if depth >= maxParenDepth {
					return nil, raise(msgSyntax)
				}
				depth++
			case ')':
				if depth == 0 {
					return nil, raise(msgSyntax)
				}
				depth--
			}
			toks = append(toks, token{kind: tokOp, text: src[i : i+1]})
			i++
		}
	}
	if depth != 0 {
		return nil, raise(msgSyntax)
	}
	return toks, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// literal converts a number literal as Python's compiler does.
func literal(text string, isFloat bool) (value, error) {
	if isFloat {
		// Python reads float literals correctly rounded; one too large for
		// a float is inf. ParseFloat does both (its range error carries
		// the infinity).
		f, _ := pyjson.ParseFloat(text)
		return floatVal(f), nil
	}
	significant := strings.TrimLeft(text, "0")
	if significant != "" && significant != text {
		return value{}, raise(msgSyntax) // leading zeros in a decimal integer
	}
	if len(significant) > maxLiteralDigits {
		return value{}, raise(msgSyntax)
	}
	if significant == "" {
		return intOf(0), nil // 0, 00, …
	}
	n, err := pyvalue.ParseInt(significant)
	if err != nil {
		return value{}, raise(msgSyntax)
	}
	return numVal(n), nil
}

// node is a parsed expression.
type node struct {
	op    string // "num", "...", "()", "u+", "u-", "+", "-", "*", "/", "//", "**", "call"
	lit   value
	l, r  *node
	star  string // for "call": "", "*" or "**" before the argument
	depth int    // nesting of operator nodes, bounded by maxDepth
}

type parser struct {
	toks  []token
	pos   int
	level int // recursion of the parser itself
}

func (p *parser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

func (p *parser) peekOp(ops ...string) (string, bool) {
	t, ok := p.peek()
	if !ok || t.kind != tokOp {
		return "", false
	}
	for _, op := range ops {
		if t.text == op {
			return op, true
		}
	}
	return "", false
}

// parse reads the whole token list as one expression.
func (p *parser) parse() (*node, error) {
	n, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, raise(msgSyntax)
	}
	return n, nil
}

// enter bounds the parser's recursion, as Python's compiler bounds the
// nesting it accepts.
func (p *parser) enter() error {
	p.level++
	if p.level > maxDepth+maxParenDepth+8 {
		return raise(msgRecursion)
	}
	return nil
}

func (p *parser) leave() { p.level-- }

func combine(op string, l, r *node) (*node, error) {
	d := l.depth
	if r != nil && r.depth > d {
		d = r.depth
	}
	n := &node{op: op, l: l, r: r, depth: d + 1}
	if n.depth > maxDepth {
		return nil, raise(msgRecursion)
	}
	return n, nil
}

// sum: term (('+' | '-') term)*
func (p *parser) sum() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	n, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		op, ok := p.peekOp("+", "-")
		if !ok {
			return n, nil
		}
		p.pos++
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		if n, err = combine(op, n, r); err != nil {
			return nil, err
		}
	}
}

// term: factor (('*' | '/' | '//') factor)*
func (p *parser) term() (*node, error) {
	n, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		op, ok := p.peekOp("*", "/", "//")
		if !ok {
			return n, nil
		}
		p.pos++
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		if n, err = combine(op, n, r); err != nil {
			return nil, err
		}
	}
}

// factor: ('+' | '-') factor | power
func (p *parser) factor() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if op, ok := p.peekOp("+", "-"); ok {
		p.pos++
		x, err := p.factor()
		if err != nil {
			return nil, err
		}
		return combine("u"+op, x, nil)
	}
	return p.power()
}

// power: primary ['**' factor]
func (p *parser) power() (*node, error) {
	base, err := p.primary()
	if err != nil {
		return nil, err
	}
	if _, ok := p.peekOp("**"); !ok {
		return base, nil
	}
	p.pos++
	exp, err := p.factor()
	if err != nil {
		return nil, err
	}
	return combine("**", base, exp)
}

// primary: atom ('(' [['*' | '**'] expression] ')')*
func (p *parser) primary() (*node, error) {
	n, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		if _, ok := p.peekOp("("); !ok {
			return n, nil
		}
		p.pos++
		var arg *node
		star := ""
		if _, ok := p.peekOp(")"); !ok {
			if star, ok = p.peekOp("*", "**"); ok {
				p.pos++
			}
			if arg, err = p.sum(); err != nil {
				return nil, err
			}
		}
		if _, ok := p.peekOp(")"); !ok {
			return nil, raise(msgSyntax)
		}
		p.pos++
		if n, err = combine("call", n, arg); err != nil {
			return nil, err
		}
		n.star = star
	}
}

// atom: NUMBER | '...' | '(' ')' | '(' expression ')'
func (p *parser) atom() (*node, error) {
	t, ok := p.peek()
	if !ok {
		return nil, raise(msgSyntax)
	}
	switch {
	case t.kind == tokNum:
		p.pos++
		return &node{op: "num", lit: t.num}, nil
	case t.kind == tokEllipsis:
		p.pos++
		return &node{op: "..."}, nil
	case t.text == "(":
		p.pos++
		if _, ok := p.peekOp(")"); ok {
			p.pos++
			return &node{op: "()"}, nil
		}
		n, err := p.sum()
		if err != nil {
			return nil, err
		}
		if _, ok := p.peekOp(")"); !ok {
			return nil, raise(msgSyntax)
		}
		p.pos++
		return n, nil
	}
	return nil, raise(msgSyntax)
}

// eval evaluates the node, operands left to right, as Python does.
func (n *node) eval(b *budget) (value, error) {
	switch n.op {
	case "num":
		return n.lit, nil
	case "...":
		return value{k: kEllipsis}, nil
	case "()":
		return value{k: kTuple}, nil
	case "u+", "u-":
		x, err := n.l.eval(b)
		if err != nil {
			return value{}, err
		}
		return unaryOp(n.op[1:], x)
	case "call":
		fn, err := n.l.eval(b)
		if err != nil {
			return value{}, err
		}
		if n.r != nil {
			arg, err := n.r.eval(b)
			if err != nil {
				return value{}, err
			}
			if err := checkStarred(fn, n.star, arg); err != nil {
				return value{}, err
			}
		}
		return value{}, raise("'" + fn.typeName() + "' object is not callable")
	}
	l, err := n.l.eval(b)
	if err != nil {
		return value{}, err
	}
	r, err := n.r.eval(b)
	if err != nil {
		return value{}, err
	}
	return binaryOp(b, n.op, l, r)
}

// checkStarred raises what Python raises when unpacking a call argument
// fails: only the empty tuple unpacks with *, and nothing with **.
func checkStarred(fn value, star string, arg value) error {
	switch {
	case star == "*" && arg.k != kTuple:
		s, err := fn.str()
		if err != nil {
			return err
		}
		return raise(s + " argument after * must be an iterable, not " + arg.typeName())
	case star == "**":
		s, err := fn.str()
		if err != nil {
			return err
		}
		return raise(s + " argument after ** must be a mapping, not " + arg.typeName())
	}
	return nil
}
