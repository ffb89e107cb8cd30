package dbhash

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// maxDepth is the deepest nesting Hash, Canonical and the normalisation accept.
const maxDepth = pyjson.MaxDepth

// Errors returned (wrapped) by the hash functions; test with errors.Is.
var (
	// ErrUnsupported means the value holds a type that is not a JSON tree
	// type. Unlike Python's default=str, nothing is stringified silently.
	ErrUnsupported = errors.New("dbhash: unsupported value")
	// ErrTooDeep means the value nests deeper than maxDepth.
	ErrTooDeep = fmt.Errorf("dbhash: nesting deeper than %d", maxDepth)
	// ErrInvalidJSON means Decode was given text Python's
	// json.loads would refuse.
	ErrInvalidJSON = errors.New("dbhash: invalid JSON")
)

// flushAt is the buffered size at which canonical bytes are handed to the
// hash, so hashing a DB never holds its whole canonical text.
const flushAt = 64 << 10

// canon writes the canonical text of a value, normalising on the fly.
type canon struct {
	cfg   *config
	style pyjson.Style
	buf   []byte
	h     hash.Hash // when set, buf is flushed into it
	// src, with hasSrc (hashing a copy of a cached table), is that table:
	// runs of its records the copy still has in place are hashed from its
	// text.
	src    cachedTable
	hasSrc bool
	pairs  [][]pair // one reusable slice per depth, from base on
	base   int      // the depth of the outermost value written
	// sorted says the order-independent lists are in order already, so
	// they are written as they are.
	sorted bool
}

// pair is one object member, with the first eight bytes of its key packed
// big-endian so that most comparisons are one integer comparison.
type pair struct {
	prefix uint64
	key    string
	val    any
}

func keyPrefix(k string) uint64 {
	if len(k) >= 8 {
		return binary.BigEndian.Uint64([]byte(k[:8]))
	}
	var p uint64
	for i := range len(k) {
		p |= uint64(k[i]) << (56 - 8*i)
	}
	return p
}

// comparePairs orders keys by bytes, which for UTF-8 (and WTF-8) is
// Python's code point order.
func comparePairs(a, b *pair) int {
	switch {
	case a.prefix < b.prefix:
		return -1
	case a.prefix > b.prefix:
		return 1
	}
	return strings.Compare(a.key, b.key)
}

// sortPairs sorts by key: insertion sort for the small objects DBs are
// made of, pdqsort beyond.
func sortPairs(ps []pair) {
	if len(ps) > 24 {
		slices.SortFunc(ps, func(a, b pair) int { return comparePairs(&a, &b) })
		return
	}
	for i := 1; i < len(ps); i++ {
		x := ps[i]
		j := i
		for ; j > 0 && (x.prefix < ps[j-1].prefix || x.prefix == ps[j-1].prefix && x.key < ps[j-1].key); j-- {
			ps[j] = ps[j-1]
		}
		ps[j] = x
	}
}

func (c *canon) flush() {
	if c.h != nil && len(c.buf) >= flushAt {
		c.h.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

// top writes v, dropping the excluded keys when v is an object.
func (c *canon) top(v any) error {
	if m, ok := v.(map[string]any); ok {
		return c.object(m, 0, c.cfg.excluded)
	}
	return c.value(v, 0)
}

func (c *canon) value(v any, depth int) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	var err error
	switch x := v.(type) {
	case string:
		if isNoneLike(x) {
			c.buf = append(c.buf, "null"...)
			return nil
		}
		c.buf, err = pyjson.AppendString(c.buf, x)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		return nil
	case map[string]any:
		return c.object(x, depth, nil)
	case []any:
		c.buf = append(c.buf, '[')
		for i, e := range x {
			if i > 0 {
				c.buf = append(c.buf, c.style.Item...)
			}
			if err := c.value(e, depth+1); err != nil {
				return err
			}
		}
		c.buf = append(c.buf, ']')
		return nil
	case json.Number:
		isInt, ok := pyjson.Classify(string(x))
		if !ok {
			return fmt.Errorf("%w: invalid json.Number %q", ErrUnsupported, string(x))
		}
		if isInt {
			if err := pyjson.CheckIntDigits(x); err != nil {
				return fmt.Errorf("%w: %w", ErrUnsupported, err)
			}
			c.buf = append(c.buf, pyjson.IntText(string(x))...)
			return nil
		}
		f, _ := pyjson.ParseFloat(string(x))
		c.float(f)
		return nil
	case float64:
		c.float(x)
		return nil
	case nil:
		c.buf = append(c.buf, "null"...)
		return nil
	case bool:
		c.buf = strconv.AppendBool(c.buf, x)
		return nil
	case float32:
		c.float(float64(x))
		return nil
	}
	if b, ok := pyjson.AppendInteger(c.buf, v); ok {
		if err := pyjson.CheckIntDigits(b[len(c.buf):]); err != nil {
			return fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		c.buf = b
		return nil
	}
	return fmt.Errorf("%w of type %T", ErrUnsupported, v)
}

// float writes a float as the normalised value: a finite whole number as
// the exact integer, anything else in Python's repr.
func (c *canon) float(f float64) {
	if f == math.Trunc(f) && !math.IsInf(f, 0) {
		c.buf = pyjson.AppendIntegralFloat(c.buf, f)
		return
	}
	c.buf = pyjson.AppendFloat(c.buf, f)
}

// object writes a JSON object with sorted keys, skipping the keys in skip.
func (c *canon) object(m map[string]any, depth int, skip map[string]bool) error {
	pairs := c.sortedPairs(m, depth, skip)
	c.buf = append(c.buf, '{')
	for i := range pairs {
		if err := c.member(i, &pairs[i], depth); err != nil {
			clear(pairs) // a pooled encoder must not keep the DB alive
			return err
		}
	}
	clear(pairs) // drop references to the DB
	c.buf = append(c.buf, '}')
	return nil
}

// sortedPairs returns m's members sorted by key, in a slice reused per
// depth.
func (c *canon) sortedPairs(m map[string]any, depth int, skip map[string]bool) []pair {
	i := depth - c.base
	for len(c.pairs) <= i {
		c.pairs = append(c.pairs, nil)
	}
	pairs := c.pairs[i][:0]
	for k, v := range m {
		if skip == nil || !skip[k] {
			pairs = append(pairs, pair{prefix: keyPrefix(k), key: k, val: v})
		}
	}
	sortPairs(pairs)
	c.pairs[i] = pairs
	return pairs
}

// member writes the i-th member of an object at depth: separator, key,
// and the normalised value.
func (c *canon) member(i int, p *pair, depth int) error {
	if i > 0 {
		c.buf = append(c.buf, c.style.Item...)
	}
	var err error
	if c.buf, err = pyjson.AppendString(c.buf, p.key); err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	c.buf = append(c.buf, c.style.Key...)
	if list, ok := p.val.([]any); ok && c.cfg.oil[p.key] {
		err = c.unordered(list, depth+1)
	} else {
		err = c.value(p.val, depth+1)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p.key, err)
	}
	c.flush()
	return nil
}

// unordered writes an order-independent list: its normalised items sorted
// (stably) by their Python default-separator JSON text. The items are
// encoded once, for their sort keys; their compact text is that key with
// the separators' spaces dropped. So nested order-independent lists cost
// one encoding per level they are nested in, as in Python, not two.
func (c *canon) unordered(list []any, depth int) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	if c.sorted || len(list) < 2 {
		return c.value(list, depth)
	}
	keys, err := c.sortKeys(list, depth)
	if err != nil {
		return err
	}
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	c.buf = append(c.buf, '[')
	for i, idx := range order {
		if i > 0 {
			c.buf = append(c.buf, c.style.Item...)
		}
		if c.style == pyjson.Default {
			c.buf = append(c.buf, keys[idx]...)
		} else {
			c.buf = appendCompact(c.buf, keys[idx])
		}
	}
	c.buf = append(c.buf, ']')
	return nil
}

// appendCompact appends JSON text written with the default separators
// (", " and ": ") with the compact ones instead. Outside strings such text
// has spaces only in its separators; inside, a quote is always escaped.
func appendCompact(dst []byte, text string) []byte {
	inString := false
	for i := 0; i < len(text); i++ {
		switch b := text[i]; {
		case inString && b == '\\':
			dst = append(dst, b, text[i+1])
			i++
			continue
		case b == '"':
			inString = !inString
		case b == ' ' && !inString:
			continue
		}
		dst = append(dst, text[i])
	}
	return dst
}

// sortKeys returns the Python sort key of each item of an
// order-independent list: json.dumps(normalised item, sort_keys=True) with
// the default separators. It encodes with c's options (with c.sorted, the
// order-independent lists inside the items are in order already) and
// lends c's per-depth scratch to the encoder: the list is at depth, so
// the depths the items use are free.
func (c *canon) sortKeys(list []any, depth int) ([]string, error) {
	sub := canon{cfg: c.cfg, style: pyjson.Default, sorted: c.sorted, pairs: c.pairs, base: c.base}
	ends := make([]int, len(list))
	for i, item := range list {
		if err := sub.value(item, depth+1); err != nil {
			return nil, err
		}
		ends[i] = len(sub.buf)
	}
	c.pairs = sub.pairs
	all := string(sub.buf)
	keys := make([]string, len(list))
	start := 0
	for i, end := range ends {
		keys[i] = all[start:end]
		start = end
	}
	return keys, nil
}

// isNoneLike reports whether Python's s.strip().lower() is "none" or
// "null".
func isNoneLike(s string) bool {
	if len(s) < 4 {
		return false
	}
	if len(s) > 4 {
		// Python whitespace starts with an ASCII space or control byte or a
		// lead byte from 0xc2, and ends with one of those ASCII bytes or a
		// continuation byte; a string bounded by anything else is stripped.
		if first, last := s[0], s[len(s)-1]; first > ' ' && first < 0xc2 && last > ' ' && last < 0x80 {
			return false
		}
		s = pyjson.Strip(s)
		if len(s) != 4 {
			return false
		}
	}
	return strings.EqualFold(s, "none") || strings.EqualFold(s, "null")
}
