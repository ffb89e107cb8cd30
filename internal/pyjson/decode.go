package pyjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every decoding error.
var ErrSyntax = errors.New("pyjson: invalid JSON")

// SyntaxError reports where decoding failed.
type SyntaxError struct {
	Offset int    // byte offset in the input
	Msg    string // what was wrong
	kind   error  // ErrDepth or ErrIntDigits, when it is one of those
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pyjson: invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold, and errors.Is(err,
// ErrDepth) for input nested too deeply, errors.Is(err, ErrIntDigits) for
// an integer too long.
func (e *SyntaxError) Unwrap() []error {
	if e.kind != nil {
		return []error{ErrSyntax, e.kind}
	}
	return []error{ErrSyntax}
}

// Decode parses data as Python's json.loads parses bytes. Objects become
// map[string]any, arrays []any, numbers json.Number (exact text),
// NaN/Infinity/-Infinity float64. The text is read in the encoding
// json.loads detects (UTF-8, or UTF-16 or UTF-32 by their byte-order mark
// or zero bytes, decoded with surrogatepass; an invalid one is a
// *DecodeError); a leading UTF-8 byte-order mark is skipped. Escaped lone
// surrogates and raw WTF-8 surrogates are kept as WTF-8. An integer of
// more than MaxIntDigits digits is an error wrapping ErrIntDigits, as it
// is a ValueError in Python. Nesting deeper than MaxDepth is an error
// (Python gives up earlier, at its recursion limit). Offsets in errors
// count bytes of the UTF-8 text.
func Decode(data []byte) (any, error) {
	d := decoder{data: data}
	return d.decode()
}

// Prints are the fingerprints of a decoded value (see prints.go): of the
// whole value, and of each member when it is an object.
type Prints struct {
	Root    uint64
	Members map[string]uint64 // nil unless the value is an object
}

// DecodePrinted decodes data as [Decode] does, and computes the
// fingerprints of the value as it goes, the same package state computes
// of the Go value. prints is nil, the value still decoded, when they
// cannot be had that way: an object names a key twice (the last value
// wins, as in Python, but the fingerprint summed both).
func DecodePrinted(data []byte) (v any, prints *Prints, err error) {
	d := decoder{data: data, printing: true}
	if v, err = d.decode(); err != nil || d.dup {
		return v, nil, err
	}
	return v, &Prints{Root: d.last, Members: d.members}, nil
}

func (d *decoder) decode() (any, error) {
	data := d.data
	switch enc := detectEncoding(data); enc.width {
	case 1:
		d.pos = enc.skip
	default:
		text, err := toWTF8(data, enc)
		if err != nil {
			return nil, err
		}
		d.data = text
	}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, d.fail("extra data after the JSON value")
	}
	return v, nil
}

type decoder struct {
	data []byte
	pos  int
	buf  []byte // scratch for strings with escapes
	// Interning: DBs repeat their field names and many short values
	// thousands of times. Sharing one copy of each saves memory and keeps
	// what a hash walk touches in cache. Each kind has a table of its own,
	// direct-mapped (a text replaces the one its slot held): a repeated
	// text is found in one probe, a unique one (an ID) costs no more than
	// its own allocation, and no table ever grows.
	// Strings and numbers have tables of their own: a string and a number
	// of the same text are different values.
	keys    internTable
	strings internTable // short string values, boxed once
	numbers internTable // short number tokens, boxed once
	// sizes hold, per nesting depth (up to hintDepths), the member count
	// of the last object and the item count of the last array decoded
	// there: the records of a table have the same shape, so the next
	// object or array at that depth is made with room for as many, and
	// does not grow step by step. A hint is a size the input really had,
	// so it never allocates more than the input could fill.
	objectSizes [hintDepths]int
	arraySizes  [hintDepths]int
	// With printing, each value parsed leaves its fingerprint in last,
	// the root object's members theirs in members; dup notes a key given
	// twice in one object, which spoils the sums.
	printing bool
	last     uint64
	members  map[string]uint64
	dup      bool
	// With ordering, the key order of each object is noted in orders
	// (keyorder.go): keyStack holds the keys of the objects being decoded,
	// each object's after its parent's, seqs the sequences met so far,
	// lastSeq the last one per depth.
	ordering bool
	orders   *KeyOrders
	keyStack []string
	seqs     map[uint64]*keySeq
	lastSeq  [hintDepths]*keySeq
}

// hintDepths is how many nesting depths keep size hints.
const hintDepths = 8

// internLimit is the longest string value or number token that is
// interned.
const internLimit = 32

// internMinInput is the smallest input whose texts are interned: a short
// text (an RTVI message) repeats little, and its tables would cost more
// than they save (a harness decodes hundreds of thousands of them).
const internMinInput = 4096

// internTable is a direct-mapped table of interned texts and their boxed
// values.
type internTable struct {
	slots []internSlot
	mask  uint64
}

type internSlot struct {
	text  string
	val   any    // the boxed value; nil for keys
	print uint64 // with printing: the value's fingerprint, or a key's hash
}

// internSeed seeds the slot hash of interned texts.
var internSeed = maphash.MakeSeed()

// slot returns b's slot, making the table on first use with a size fit
// for an input of n bytes.
func (t *internTable) slot(b []byte, n int) *internSlot {
	if t.slots == nil {
		size := 8
		for size < 8192 && size*128 < n {
			size *= 2
		}
		t.slots, t.mask = make([]internSlot, size), uint64(size-1)
	}
	return &t.slots[maphash.Bytes(internSeed, b)&t.mask]
}

// internKey returns the key of text b, and its hash when printing or
// ordering.
func (d *decoder) internKey(b []byte) (string, uint64) {
	hashed := d.printing || d.ordering
	if len(d.data) < internMinInput {
		s := string(b)
		if hashed {
			return s, KeyHash(s)
		}
		return s, 0
	}
	if len(b) == 0 { // the zero slot already holds "", with no hash
		if hashed {
			return "", KeyHash("")
		}
		return "", 0
	}
	sl := d.keys.slot(b, len(d.data))
	if sl.text != string(b) {
		sl.text = string(b)
		if hashed {
			sl.print = KeyHash(sl.text)
		}
	}
	return sl.text, sl.print
}

// intern returns the boxed value of text b as a T (a string value or a
// json.Number), shared through t with earlier equal texts of that kind.
// With print (printing), it leaves the value's fingerprint in d.last.
func intern[T ~string](d *decoder, t *internTable, b []byte, print func(string) uint64) any {
	if len(b) > internLimit || len(d.data) < internMinInput {
		s := string(b)
		if d.printing {
			d.last = print(s)
		}
		return T(s)
	}
	sl := t.slot(b, len(d.data))
	if sl.val == nil || sl.text != string(b) {
		s := string(b)
		sl.text, sl.val = s, T(s)
		if d.printing {
			sl.print = print(s)
		}
	}
	d.last = sl.print
	return sl.val
}

func (d *decoder) fail(msg string) error { return &SyntaxError{Offset: d.pos, Msg: msg} }

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, &SyntaxError{Offset: d.pos, Msg: fmt.Sprintf("nesting deeper than %d", MaxDepth), kind: ErrDepth}
	}
	if d.pos >= len(d.data) {
		return nil, d.fail("expecting value")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		b, err := d.stringBytes()
		if err != nil {
			return nil, err
		}
		return intern[string](d, &d.strings, b, StringPrint), nil
	case c == '-' || c >= '0' && c <= '9':
		if c == '-' && d.hasPrefix("-Infinity") {
			d.pos += len("-Infinity")
			d.last = FloatPrint(math.Inf(-1))
			return math.Inf(-1), nil
		}
		return d.number()
	case d.hasPrefix("true"):
		d.pos += 4
		d.last = Salts[TagTrue]
		return true, nil
	case d.hasPrefix("false"):
		d.pos += 5
		d.last = Salts[TagFalse]
		return false, nil
	case d.hasPrefix("null"):
		d.pos += 4
		d.last = Salts[TagNil]
		return nil, nil
	case d.hasPrefix("NaN"):
		d.pos += 3
		d.last = FloatPrint(math.NaN())
		return math.NaN(), nil
	case d.hasPrefix("Infinity"):
		d.pos += 8
		d.last = FloatPrint(math.Inf(1))
		return math.Inf(1), nil
	}
	return nil, d.fail("expecting value")
}

func (d *decoder) hasPrefix(p string) bool {
	return len(d.data)-d.pos >= len(p) && string(d.data[d.pos:d.pos+len(p)]) == p
}

func (d *decoder) object(depth int) (any, error) {
	d.pos++ // {
	hint := 0
	if depth < hintDepths {
		hint = d.objectSizes[depth]
	}
	m := make(map[string]any, hint)
	var sum uint64 // with printing
	if d.printing && depth == 0 {
		d.members = make(map[string]uint64)
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.last = MapPrint(0, 0)
		return m, nil
	}
	start := len(d.keyStack)                  // with ordering: this object's keys from here
	seq, set := uint64(keySeqSeed), uint64(0) // with ordering: their hashes
	for {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail("expecting property name enclosed in double quotes")
		}
		k, err := d.stringBytes()
		if err != nil {
			return nil, err
		}
		key, keyHash := d.internKey(k)
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail("expecting ':' delimiter")
		}
		d.pos++
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		switch {
		case d.printing || d.ordering:
			n := len(m)
			m[key] = v
			if len(m) == n {
				d.dup = d.dup || d.printing
			} else if d.ordering { // a key given again keeps its first place
				d.keyStack = append(d.keyStack, key)
				seq, set = nextSeq(seq, keyHash), set+keyHash
			}
			if d.printing {
				sum += EntryPrint(keyHash, d.last)
				if depth == 0 {
					d.members[key] = d.last
				}
			}
		default:
			m[key] = v
		}
		if done, err := d.next('}'); done || err != nil {
			if depth < hintDepths {
				d.objectSizes[depth] = len(m)
			}
			if d.ordering {
				if keys := d.keyStack[start:]; len(keys) >= 2 && err == nil {
					d.noteOrder(m, keys, seq, set, depth)
				}
				d.keyStack = d.keyStack[:start]
			}
			d.last = MapPrint(sum, len(m))
			return m, err
		}
	}
}

// next consumes what follows a member or item: a ',' (more to come) or
// the closing byte (done).
func (d *decoder) next(closing byte) (done bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.fail("expecting ',' delimiter")
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		d.skipSpace()
		return false, nil
	case closing:
		d.pos++
		return true, nil
	}
	return false, d.fail("expecting ',' delimiter")
}

func (d *decoder) array(depth int) (any, error) {
	d.pos++ // [
	hint := 4
	if depth < hintDepths && d.arraySizes[depth] > 0 {
		hint = d.arraySizes[depth]
	}
	a := make([]any, 0, hint)
	var sum uint64 // with printing
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.last = ListPrint(0, 0)
		return a, nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if d.printing {
			sum += ItemPrint(len(a), d.last)
		}
		a = append(a, v)
		if done, err := d.next(']'); done || err != nil {
			if depth < hintDepths {
				d.arraySizes[depth] = len(a)
			}
			d.last = ListPrint(sum, len(a))
			return a, err
		}
	}
}

// number scans -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? as Python's scanner
// does: the longest match, leaving anything after it to the caller.
func (d *decoder) number() (any, error) {
	s := d.pos
	p := d.pos
	digits := func() int {
		n := 0
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
			n++
		}
		return n
	}
	if d.data[p] == '-' {
		p++
	}
	switch {
	case p < len(d.data) && d.data[p] == '0':
		p++
	case p < len(d.data) && d.data[p] >= '1' && d.data[p] <= '9':
		digits()
	default:
		return nil, d.fail("expecting value") // at the value's start, as Python reports it
	}
	isInt := true
	if p+1 < len(d.data) && d.data[p] == '.' && d.data[p+1] >= '0' && d.data[p+1] <= '9' {
		p++
		digits()
		isInt = false
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		q := p
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if digits() == 0 {
			p = q // not an exponent: Python's regex stops before the 'e'
		} else {
			isInt = false
		}
	}
	if isInt {
		if n := digitCount(d.data[s:p]); n > MaxIntDigits {
			return nil, &SyntaxError{Offset: s, kind: ErrIntDigits, Msg: "ValueError: " + MsgStrToInt(n)}
		}
	}
	d.pos = p
	return intern[json.Number](d, &d.numbers, d.data[s:p], NumberPrint), nil
}

// stringBytes decodes a JSON string at d.pos (on the opening quote). The
// bytes returned are only valid until the next call.
func (d *decoder) stringBytes() ([]byte, error) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes, ASCII only.
	for p := start; p < len(d.data); p++ {
		c := d.data[p]
		if c == '"' {
			d.pos = p + 1
			return d.data[start:p], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	b := d.buf[:0]
	p := start
	for {
		if p >= len(d.data) {
			d.pos = start - 1
			return nil, d.fail("unterminated string")
		}
		c := d.data[p]
		switch {
		case c == '"':
			d.pos = p + 1
			d.buf = b
			return b, nil
		case c < 0x20:
			d.pos = p
			return nil, d.fail("invalid control character in string")
		case c == '\\':
			var err error
			if b, p, err = d.escape(b, p); err != nil {
				return nil, err
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p++
		default:
			r, size := utf8.DecodeRune(d.data[p:])
			if r == utf8.RuneError && size == 1 {
				if _, ok := surrogateAt(string(d.data[p:min(p+3, len(d.data))]), 0); !ok {
					d.pos = p
					return nil, d.fail("invalid UTF-8")
				}
				size = 3 // a raw WTF-8 surrogate: Python decodes with surrogatepass
			}
			b = append(b, d.data[p:p+size]...)
			p += size
		}
	}
}

// escape decodes the escape sequence at p (on the backslash).
func (d *decoder) escape(b []byte, p int) ([]byte, int, error) {
	if p+1 >= len(d.data) {
		d.pos = p
		return b, p, d.fail("unterminated string")
	}
	switch d.data[p+1] {
	case '"':
		return append(b, '"'), p + 2, nil
	case '\\':
		return append(b, '\\'), p + 2, nil
	case '/':
		return append(b, '/'), p + 2, nil
	case 'b':
		return append(b, '\b'), p + 2, nil
	case 'f':
		return append(b, '\f'), p + 2, nil
	case 'n':
		return append(b, '\n'), p + 2, nil
	case 'r':
		return append(b, '\r'), p + 2, nil
	case 't':
		return append(b, '\t'), p + 2, nil
	case 'u':
		r, ok := hex4(d.data, p+2)
		if !ok {
			d.pos = p
			return b, p, d.fail("invalid \\uXXXX escape")
		}
		p += 6
		if r >= 0xd800 && r <= 0xdbff && p+1 < len(d.data) && d.data[p] == '\\' && d.data[p+1] == 'u' {
			if lo, ok := hex4(d.data, p+2); ok && lo >= 0xdc00 && lo <= 0xdfff {
				return utf8.AppendRune(b, 0x10000+(r-0xd800)<<10+(lo-0xdc00)), p + 6, nil
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			return AppendSurrogate(b, r), p, nil
		}
		return utf8.AppendRune(b, r), p, nil
	}
	d.pos = p
	return b, p, d.fail("invalid \\escape")
}

func hex4(data []byte, p int) (rune, bool) {
	if p+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[p : p+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
