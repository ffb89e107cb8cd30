package pyvalue

import (
	"sort"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

//go:generate sh -c "python3 gen_tables.py | gofmt > tables.go"

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// inRanges reports whether r is in one of the sorted ranges rs.
func inRanges(rs []runeRange, r rune) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].hi >= r })
	return i < len(rs) && rs[i].lo <= r
}

// caseRange maps lo, lo+stride, …, hi to themselves plus delta.
type caseRange struct {
	lo, hi, stride, delta rune
}

// caseSpecial maps one character to several.
type caseSpecial struct {
	r rune
	s string
}

// caseTable is one of Python's case mappings of a single character. A
// table with a base lists only the characters it maps differently from
// its base (str.title from str.upper, str.casefold from str.lower).
type caseTable struct {
	base     *caseTable
	ranges   []caseRange
	specials []caseSpecial
}

// appendMapped appends the mapping of r to b.
func (t *caseTable) appendMapped(b *strings.Builder, r rune) {
	sp := t.specials
	if i := sort.Search(len(sp), func(i int) bool { return sp[i].r >= r }); i < len(sp) && sp[i].r == r {
		b.WriteString(sp[i].s)
		return
	}
	rs := t.ranges
	if i := sort.Search(len(rs), func(i int) bool { return rs[i].hi >= r }); i < len(rs) && rs[i].lo <= r && (r-rs[i].lo)%rs[i].stride == 0 {
		writeRune(b, r+rs[i].delta)
		return
	}
	if t.base != nil {
		t.base.appendMapped(b, r)
		return
	}
	writeRune(b, r)
}

// decimalValue returns the value of a Unicode decimal digit (Python's
// unicodedata.decimal), or -1.
func decimalValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	z := decimalZeros
	i := sort.Search(len(z), func(i int) bool { return z[i]+9 >= r })
	if i < len(z) && z[i] <= r {
		return int(r - z[i])
	}
	return -1
}

// isSurrogate reports whether r is a UTF-16 surrogate code point.
func isSurrogate(r rune) bool { return r >= 0xd800 && r <= 0xdfff }

// writeRune writes r, a surrogate as WTF-8.
func writeRune(b *strings.Builder, r rune) {
	if isSurrogate(r) {
		var buf [3]byte
		b.Write(pyjson.AppendSurrogate(buf[:0], r))
		return
	}
	b.WriteRune(r)
}
