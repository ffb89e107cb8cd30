package pyjson

import "strings"

// ListRepr renders names the way Python's repr renders a list of simple
// strings, for error texts that must read as the Python original's:
// ['a', 'b']. Names are quoted with single quotes as they are; it is meant
// for identifiers, not arbitrary text.
func ListRepr(names []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('\'')
		b.WriteString(n)
		b.WriteByte('\'')
	}
	b.WriteByte(']')
	return b.String()
}
