package tau2tools

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// PyLower returns s as Python's str.lower() returns it: full Unicode case
// mapping, so "İ" becomes "i̇" (two code points) and a word-final "Σ"
// becomes "ς". ASCII strings take a fast path.
func PyLower(s string) string {
	if lower, ok := asciiCase(s, 'A', 'Z', 'a'-'A'); ok {
		return lower
	}
	// A Caser keeps state, so each call gets its own.
	return cases.Lower(language.Und).String(s)
}

// PyUpper returns s as Python's str.upper() returns it: full Unicode case
// mapping, so "ß" becomes "SS" and "ﬁ" becomes "FI". ASCII strings take a
// fast path.
func PyUpper(s string) string {
	if upper, ok := asciiCase(s, 'a', 'z', 'A'-'a'); ok {
		return upper
	}
	return cases.Upper(language.Und).String(s)
}

// asciiCase shifts the bytes of s in [lo, hi] by delta when s is all
// ASCII, and reports whether it was. s itself is returned when nothing
// changes.
func asciiCase(s string, lo, hi byte, delta int) (string, bool) {
	change := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "", false
		}
		if c >= lo && c <= hi {
			change = true
		}
	}
	if !change {
		return s, true
	}
	b := []byte(s)
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = byte(int(c) + delta)
		}
	}
	return string(b), true
}
