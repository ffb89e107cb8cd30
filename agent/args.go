package agent

import (
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// appendPlainArguments writes json.dumps(json.loads(raw),
// ensure_ascii=False) for the arguments models send nearly always —
// objects, arrays, strings without escapes, plain numbers, true, false,
// null, no key twice in an object — in one pass, and reports false for
// anything else (escapes, NaN, a repeated key, a syntax error, …), which
// the full decode then handles. It must write what the full decode
// writes; FuzzContextArguments checks it.
func appendPlainArguments(dst []byte, raw string) ([]byte, bool) {
	p := plainParser{s: raw, dst: dst}
	p.space()
	if !p.value(0) {
		return dst, false
	}
	p.space()
	if p.i != len(p.s) {
		return dst, false
	}
	return p.dst, true
}

type plainParser struct {
	s   string
	i   int
	dst []byte
}

func (p *plainParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *plainParser) value(depth int) bool {
	if p.i >= len(p.s) || depth > 100 {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if ok {
			p.dst = append(p.dst, '"')
			p.dst = append(p.dst, s...)
			p.dst = append(p.dst, '"')
		}
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit {
			p.dst = append(p.dst, lit...)
			p.i += len(lit)
			return true
		}
	}
	return false
}

func (p *plainParser) object(depth int) bool {
	p.i++ // {
	p.dst = append(p.dst, '{')
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		p.dst = append(p.dst, '}')
		return true
	}
	var keys [16]string
	n := 0
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return false
		}
		k, ok := p.str()
		if !ok {
			return false
		}
		if n == len(keys) {
			return false // many keys: the full decode checks repeats
		}
		for _, seen := range keys[:n] {
			if seen == k {
				return false
			}
		}
		keys[n] = k
		n++
		if n > 1 {
			p.dst = append(p.dst, ", "...)
		}
		p.dst = append(p.dst, '"')
		p.dst = append(p.dst, k...)
		p.dst = append(p.dst, `": `...)
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		if !p.value(depth + 1) {
			return false
		}
		if end, ok := p.after('}'); !ok || end {
			return ok
		}
	}
}

func (p *plainParser) array(depth int) bool {
	p.i++ // [
	p.dst = append(p.dst, '[')
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		p.dst = append(p.dst, ']')
		return true
	}
	for first := true; ; first = false {
		if !first {
			p.dst = append(p.dst, ", "...)
		}
		if !p.value(depth + 1) {
			return false
		}
		if end, ok := p.after(']'); !ok || end {
			return ok
		}
	}
}

// after reads what follows a member or an element: a comma (end false)
// or the closing byte, which it writes (end true); ok is false for
// anything else.
func (p *plainParser) after(closing byte) (end, ok bool) {
	p.space()
	if p.i >= len(p.s) {
		return false, false
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		p.space()
		return false, true
	case closing:
		p.i++
		p.dst = append(p.dst, closing)
		return true, true
	}
	return false, false
}

// str reads a string without escapes or control characters, valid UTF-8,
// and returns its text (which ensure_ascii=False writes as it is).
func (p *plainParser) str() (string, bool) {
	start := p.i + 1
	for j := start; j < len(p.s); j++ {
		switch c := p.s[j]; {
		case c == '"':
			p.i = j + 1
			s := p.s[start:j]
			return s, utf8.ValidString(s)
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// number reads an integer of up to 18 digits (written as it is) or a
// decimal float (written as Python's repr of the float json.loads makes).
func (p *plainParser) number() bool {
	start := p.i
	j := p.i
	if p.s[j] == '-' {
		j++
	}
	digits := j
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	nd := j - digits
	if nd == 0 || nd > 1 && p.s[digits] == '0' {
		return false
	}
	isFloat := false
	if j < len(p.s) && p.s[j] == '.' {
		isFloat = true
		j++
		f := j
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == f {
			return false
		}
	}
	if j < len(p.s) && (p.s[j] == 'e' || p.s[j] == 'E') {
		isFloat = true
		j++
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		e := j
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == e {
			return false
		}
	}
	text := p.s[start:j]
	p.i = j
	if !isFloat {
		if nd > 18 || text == "-0" {
			return false
		}
		p.dst = append(p.dst, text...)
		return true
	}
	if len(text) > 40 {
		return false
	}
	f, err := pyjson.ParseFloat(text)
	if err != nil {
		return false
	}
	p.dst = pyjson.AppendFloat(p.dst, f)
	return true
}
