package pyvalue

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Str returns Python's str(v): a str as it is, an exception's str(), and
// for every other value its [Repr].
func Str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case *Error:
		return x.Str()
	}
	return Repr(v)
}

// Repr returns Python's repr(v):
//
//   - None, True, False; ints as their digits; floats as Python's
//     shortest repr ("1.0", "1e-05", "1e+16", "inf", "nan");
//   - a str quoted as Python quotes it: single quotes unless it holds a
//     single quote and no double quote; \\, the quote, \t, \n, \r
//     escaped; characters str.isprintable refuses (Unicode 14, as CPython
//     3.11) as \xNN, \uNNNN or \UNNNNNNNN, a WTF-8 lone surrogate as
//     \udXXX; a byte that is neither UTF-8 nor WTF-8 as U+FFFD;
//   - a list as [a, b]; a dict as {'k': v}, a Dict in its order, a
//     map[string]any in sorted key order;
//   - an *Error as Type('msg').
//
// Any other Go value is written "<Go T>".
func Repr(v any) string {
	var b reprBuf
	writeRepr(&b, v)
	return string(b)
}

// AppendRepr appends Repr(v) to dst.
func AppendRepr(dst []byte, v any) []byte {
	b := reprBuf(dst)
	writeRepr(&b, v)
	return b
}

type reprBuf []byte

func (b *reprBuf) WriteByte(c byte) error            { *b = append(*b, c); return nil }
func (b *reprBuf) WriteString(s string) (int, error) { *b = append(*b, s...); return len(s), nil }
func (b *reprBuf) Write(p []byte) (int, error)       { *b = append(*b, p...); return len(p), nil }
func (b *reprBuf) WriteRune(r rune) (int, error) {
	n := len(*b)
	*b = utf8.AppendRune(*b, r)
	return len(*b) - n, nil
}

func writeRepr(b *reprBuf, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		writeStrRepr(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case map[string]any, Dict:
		items, _ := dictItems(x)
		b.WriteByte('{')
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeStrRepr(b, it.Key)
			b.WriteString(": ")
			writeRepr(b, it.Value)
		}
		b.WriteByte('}')
	case *Error:
		b.WriteString(x.Repr())
	default:
		if n, ok := NumOf(v); ok {
			b.WriteString(n.String())
			return
		}
		fmt.Fprintf(b, "<Go %T>", v)
	}
}

const hexDigits = "0123456789abcdef"

func writeStrRepr(b *reprBuf, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	*b = slices.Grow(*b, len(s)+2)
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		if c := s[i]; c >= ' ' && c < 0x7f && c != quote && c != '\\' {
			*b = append(*b, c)
			i++
			continue
		}
		r, size := pyjson.DecodeRune(s[i:])
		i += size
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r < utf8.RuneSelf && r >= ' ' && r < 0x7f:
			b.WriteByte(byte(r))
		case !isSurrogate(r) && inRanges(printable, r):
			b.WriteRune(r)
		default:
			n := 8
			switch {
			case r < 0x100:
				b.WriteString(`\x`)
				n = 2
			case r < 0x10000:
				b.WriteString(`\u`)
				n = 4
			default:
				b.WriteString(`\U`)
			}
			for k := n - 1; k >= 0; k-- {
				b.WriteByte(hexDigits[(r>>(4*k))&0xf])
			}
		}
	}
	b.WriteByte(quote)
}
