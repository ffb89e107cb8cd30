package pyjson

import (
	"bytes"
	"strconv"
)

// Nesting returns how deep the JSON text data nests: the most brackets
// ([ and {) open at once outside strings, in one linear pass that decodes
// nothing. Text that is not JSON gets a number too; the decoder judges it.
// Python's json.loads raises RecursionError near 1000 (994 at the top of
// a CPython 3.11 stack, less deeper in a program's calls).
func Nesting(data []byte) int {
	depth, most := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth--
		}
	}
	return most
}

// EscapeLoneSurrogates returns b with each lone surrogate the decoder kept
// as WTF-8 (ED A0..BF xx) written as Python's backslashreplace writes it,
// \udXXX, so a text file or page holds valid UTF-8. NeMo's writers would
// raise UnicodeEncodeError on such a str; json.dump escapes it the same
// way. b itself is returned when it holds none.
func EscapeLoneSurrogates(b []byte) []byte {
	i := bytes.IndexByte(b, 0xed)
	for ; i >= 0; i = indexFrom(b, i+1) {
		if _, ok := surrogateAt(string(b[i:min(i+3, len(b))]), 0); ok {
			break
		}
	}
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		if r, ok := surrogateAt(string(b[i:min(i+3, len(b))]), 0); ok {
			out = append(out, `\u`...)
			out = strconv.AppendInt(out, int64(r), 16)
			i += 3
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// indexFrom is the index of the next 0xED byte at or after i, or -1.
func indexFrom(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	j := bytes.IndexByte(b[i:], 0xed)
	if j < 0 {
		return -1
	}
	return i + j
}
