package dbhash

import (
	"fmt"
	"hash"
	"maps"
	"reflect"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Cache holds the canonical text of the tables (top-level object members)
// of one DB that does not change — say, the DB every task of a benchmark
// starts from. Hashing a DB that still shares some of those tables (the
// very same maps: copy-on-write copies share what they did not write) then
// reuses their text instead of encoding them again. Gold replay of many
// tasks hashes each final DB this way.
//
// The promise the caller makes: while the Cache is in use, no table of the
// DB it was built from is modified. The Cache holds the tables themselves,
// so they stay alive (and their identity unique) as long as it does. A
// Cache is safe for concurrent use; the zero value holds no tables.
type Cache struct {
	cfg    *config
	tables map[string]cachedTable
}

type cachedTable struct {
	table map[string]any // an object table itself: identity, and kept alive
	list  []any          // or a list table
	text  []byte         // its canonical text
}

// same reports whether v is the very table t was made from: the same map,
// or the same list (same backing array and length).
func (t cachedTable) same(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return t.table != nil && sameMap(x, t.table)
	case []any:
		return len(t.list) > 0 && len(x) == len(t.list) && &x[0] == &t.list[0]
	}
	return false
}

// NewCache builds the cache of db's tables that are objects or non-empty
// lists, with the options that the hashes using it will have.
func NewCache(db map[string]any, opts ...Option) (*Cache, error) {
	cfg := newConfig(opts)
	c := &Cache{cfg: cfg, tables: make(map[string]cachedTable, len(db))}
	enc := &canon{cfg: cfg, style: pyjson.Compact}
	for k, v := range db {
		if cfg.excluded[k] {
			continue
		}
		var t cachedTable
		enc.buf = enc.buf[:0]
		var err error
		switch x := v.(type) {
		case map[string]any:
			t.table = x
			err = enc.object(x, 1, nil)
		case []any:
			if len(x) == 0 {
				continue
			}
			t.list = x
			p := pair{prefix: keyPrefix(k), key: k, val: x}
			err = enc.member(0, &p, 0)
			// member wrote the key too: keep the value's text only
			if err == nil {
				key, _ := pyjson.AppendString(nil, k)
				enc.buf = enc.buf[len(key)+1:]
			}
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dbhash: caching table %q: %w", k, err)
		}
		t.text = append([]byte(nil), enc.buf...)
		c.tables[k] = t
	}
	return c, nil
}

// WithCache makes [Hash] reuse c's text for every table of the hashed DB
// that is the very map c was built from. c must have been built with the
// same excluded keys and order-independent fields as the hash; the options
// given with WithCache are checked against it.
func WithCache(c *Cache) Option { return func(cfg *config) { cfg.cache = c } }

// hashCached hashes the top-level object m, taking the text of unchanged
// tables from the cache and encoding the others.
func hashCached(h hash.Hash, m map[string]any, cfg *config) error {
	c := cfg.cache
	if c.cfg == nil {
		c = &Cache{cfg: cfg} // the zero Cache: nothing cached
	}
	if !maps.Equal(c.cfg.excluded, cfg.excluded) || !maps.Equal(c.cfg.oil, cfg.oil) {
		return fmt.Errorf("dbhash: the cache was built with other options than the hash")
	}
	enc := canonPool.Get().(*canon)
	defer canonPool.Put(enc)
	enc.cfg, enc.style, enc.h, enc.buf = cfg, pyjson.Compact, nil, enc.buf[:0]
	top := &canon{cfg: cfg, style: pyjson.Compact}
	pairs := top.sortedPairs(m, 0, cfg.excluded)
	h.Write([]byte{'{'})
	for i := range pairs {
		p := &pairs[i]
		if t, ok := c.tables[p.key]; ok {
			if t.same(p.val) {
				var err error
				enc.buf = enc.buf[:0]
				if i > 0 {
					enc.buf = append(enc.buf, ',')
				}
				if enc.buf, err = pyjson.AppendString(enc.buf, p.key); err != nil {
					return fmt.Errorf("%w: %w", ErrUnsupported, err)
				}
				enc.buf = append(enc.buf, ':')
				h.Write(enc.buf)
				h.Write(t.text)
				continue
			}
		}
		enc.buf = enc.buf[:0]
		enc.h = h
		if err := enc.member(i, p, 0); err != nil {
			enc.h = nil
			return err
		}
		h.Write(enc.buf)
		enc.h = nil
	}
	h.Write([]byte{'}'})
	return nil
}

// sameMap reports whether a and b are the same map (not equal maps).
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
