package pyjson

import "unicode/utf8"

// IsSpace reports whether Python's str.isspace is true for r: the ASCII
// whitespace, the separators \x1c-\x1f, and the Unicode spaces (\x85,
// \xa0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
func IsSpace(r rune) bool {
	switch {
	case r <= 0x20:
		return r == ' ' || r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x1f
	case r < 0x85:
		return false
	}
	switch r {
	case 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Strip removes leading and trailing characters for which IsSpace is true,
// as Python's str.strip() does.
func Strip(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if !IsSpace(r) {
			break
		}
		s = s[size:]
	}
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !IsSpace(r) {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}
