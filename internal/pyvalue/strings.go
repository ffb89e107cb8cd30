package pyvalue

import (
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// The string methods below apply Python's full case mappings (ß upper is
// "SS", İ lower is "i̇", ﬁ casefold is "fi") from the Unicode data CPython
// 3.11 carries (14.0.0), whatever the Unicode version of the Go toolchain.
// A WTF-8 lone surrogate passes through unchanged, as do bytes that are
// not UTF-8.

// Lower returns Python's s.lower(), with the final sigma rule: Σ becomes ς
// after a cased letter and not before one (case-ignorable characters in
// between do not count), σ elsewhere.
func Lower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s) // no sigma, no full mappings
	}
	return mapCase(s, false)
}

// Title returns Python's s.title(): a character following a cased one is
// lowercased (with the final sigma rule), any other is titlecased, so
// "it's" is "It'S".
func Title(s string) string { return mapCase(s, true) }

// Upper returns Python's s.upper().
func Upper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s) // no full mappings; s itself when nothing changes
	}
	return mapEach(s, &upperMap)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Casefold returns Python's s.casefold(): full case folding, no final
// sigma ("ΣΑΣ" is "σασ").
func Casefold(s string) string { return mapEach(s, &foldMap) }

func mapEach(s string, t *caseTable) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := pyjson.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(s[i])
		} else {
			t.appendMapped(&b, r)
		}
		i += size
	}
	return b.String()
}

// mapCase lowercases s, or titlecases it when title is set.
func mapCase(s string, title bool) string {
	var b strings.Builder
	b.Grow(len(s))
	prevCased := false  // the previous character is cased (title)
	sigmaAfter := false // the last character that is not case-ignorable is cased
	for i := 0; i < len(s); {
		r, size := pyjson.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i])
		case title && !prevCased:
			titleMap.appendMapped(&b, r)
		case r == 0x3a3:
			if sigmaAfter && !casedFollows(s[i+size:]) {
				b.WriteRune(0x3c2)
			} else {
				b.WriteRune(0x3c3)
			}
		default:
			lowerMap.appendMapped(&b, r)
		}
		cased := inRanges(casedChars, r)
		prevCased = cased
		if !inRanges(caseIgnorable, r) {
			sigmaAfter = cased
		}
		i += size
	}
	return b.String()
}

// casedFollows reports whether the first character of s that is not
// case-ignorable is cased.
func casedFollows(s string) bool {
	for i := 0; i < len(s); {
		r, size := pyjson.DecodeRune(s[i:])
		if !inRanges(caseIgnorable, r) {
			return inRanges(casedChars, r)
		}
		i += size
	}
	return false
}

// Strip returns Python's s.strip(): s without leading and trailing
// whitespace (str.isspace: the ASCII whitespace, \x1c-\x1f and the
// Unicode spaces).
func Strip(s string) string { return pyjson.Strip(s) }

// Split returns Python's s.split(): the runs of characters between
// whitespace (as for [Strip]), never an empty string; an empty or blank s
// gives an empty, non-nil slice.
func Split(s string) []string {
	out := []string{}
	start := -1
	for i := 0; i < len(s); {
		r, size := pyjson.DecodeRune(s[i:])
		if pyjson.IsSpace(r) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
