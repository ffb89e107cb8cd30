package pyvalue

import (
	"errors"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Loads returns Python's json.loads(text) with the order of every object
// kept: objects become a [Dict] in the order of the text (a repeated key
// keeps its first position and takes its last value, as a dict does), and
// everything else is what pyjson.Decode makes of it, including its errors,
// which Loads returns as they are.
func Loads(text []byte) (any, error) {
	v, err := pyjson.Decode(text)
	if err != nil {
		return nil, err
	}
	if len(text) >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf {
		text = text[3:]
	}
	p := orderedParser{text: text}
	w, ok := p.value()
	if !ok {
		// Not UTF-8 text (pyjson read UTF-16 or UTF-32): no order to add.
		return v, nil
	}
	return w, nil
}

// orderedParser walks a text pyjson has accepted, building containers
// itself and leaving every scalar token to pyjson.
type orderedParser struct {
	text []byte
	pos  int
}

func (p *orderedParser) skipSpace() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *orderedParser) value() (any, bool) {
	p.skipSpace()
	if p.pos >= len(p.text) {
		return nil, false
	}
	switch p.text[p.pos] {
	case '{':
		p.pos++
		d := Dict{}
		at := map[string]int{}
		for {
			p.skipSpace()
			if p.pos < len(p.text) && p.text[p.pos] == '}' {
				p.pos++
				return d, true
			}
			k, ok := p.value()
			key, isStr := k.(string)
			if !ok || !isStr {
				return nil, false
			}
			p.skipSpace()
			if p.pos >= len(p.text) || p.text[p.pos] != ':' {
				return nil, false
			}
			p.pos++
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			if i, dup := at[key]; dup {
				d[i].Value = v
			} else {
				at[key] = len(d)
				d = append(d, Item{key, v})
			}
			if !p.comma('}') {
				return nil, false
			}
		}
	case '[':
		p.pos++
		l := []any{}
		for {
			p.skipSpace()
			if p.pos < len(p.text) && p.text[p.pos] == ']' {
				p.pos++
				return l, true
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			l = append(l, v)
			if !p.comma(']') {
				return nil, false
			}
		}
	case '"':
		start := p.pos
		for p.pos++; p.pos < len(p.text) && p.text[p.pos] != '"'; p.pos++ {
			if p.text[p.pos] == '\\' {
				p.pos++
			}
		}
		p.pos++
		return p.scalar(start)
	}
	start := p.pos
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ',', ']', '}', ':', ' ', '\t', '\n', '\r':
			return p.scalar(start)
		}
		p.pos++
	}
	return p.scalar(start)
}

// comma consumes a ',' or peeks at the closing byte.
func (p *orderedParser) comma(closing byte) bool {
	p.skipSpace()
	if p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ',':
			p.pos++
			return true
		case closing:
			return true
		}
	}
	return false
}

func (p *orderedParser) scalar(start int) (any, bool) {
	if p.pos > len(p.text) {
		return nil, false
	}
	v, err := pyjson.Decode(p.text[start:p.pos])
	return v, err == nil
}

// AppendJSON appends Python's json.dumps(v) text (allow_nan; ensure_ascii
// unless style.Unicode) with the separators of style: a Dict in its order, or with
// its keys sorted when sortKeys is set (json.dumps(v, sort_keys=True)); a
// map[string]any always sorted (a Go map has no other order); a Num as
// its number; every other value as pyjson writes it. Errors are pyjson's.
func AppendJSON(dst []byte, v any, style pyjson.Style, sortKeys bool) ([]byte, error) {
	return appendJSON(dst, v, style, sortKeys, 0)
}

var errDepth = errors.New("pyvalue: value nests deeper than pyjson.MaxDepth")

func appendJSON(dst []byte, v any, style pyjson.Style, sortKeys bool, depth int) ([]byte, error) {
	if depth > pyjson.MaxDepth {
		return dst, errDepth
	}
	var err error
	switch x := v.(type) {
	case Dict, map[string]any:
		items, _ := dictItems(x)
		if _, ok := x.(Dict); ok && sortKeys {
			items = slices.Clone(items)
			slices.SortFunc(items, func(a, b Item) int { return strings.Compare(a.Key, b.Key) })
		}
		dst = append(dst, '{')
		for i, it := range items {
			if i > 0 {
				dst = append(dst, style.Item...)
			}
			if dst, err = pyjson.AppendStringStyle(dst, it.Key, style); err != nil {
				return dst, err
			}
			dst = append(dst, style.Key...)
			if dst, err = appendJSON(dst, it.Value, style, sortKeys, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, style.Item...)
			}
			if dst, err = appendJSON(dst, e, style, sortKeys, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case Num:
		return pyjson.Append(dst, x.Value(), style)
	}
	return pyjson.Append(dst, v, style)
}
