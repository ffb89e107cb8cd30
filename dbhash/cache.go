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
// DB it was built from is modified. A Cache is safe for concurrent use.
type Cache struct {
	cfg    *config
	tables map[string]cachedTable
}

type cachedTable struct {
	ptr  uintptr // the table's identity: the map itself
	text []byte  // its canonical text
}

// NewCache builds the cache of db's tables that are objects, with the
// options that the hashes using it will have.
func NewCache(db map[string]any, opts ...Option) (*Cache, error) {
	cfg := newConfig(opts)
	c := &Cache{cfg: cfg, tables: make(map[string]cachedTable, len(db))}
	enc := &canon{cfg: cfg, style: pyjson.Compact}
	for k, v := range db {
		m, ok := v.(map[string]any)
		if !ok || cfg.excluded[k] {
			continue
		}
		enc.buf = enc.buf[:0]
		if err := enc.object(m, 1, nil); err != nil {
			return nil, fmt.Errorf("dbhash: caching table %q: %w", k, err)
		}
		c.tables[k] = cachedTable{ptr: reflect.ValueOf(m).Pointer(), text: append([]byte(nil), enc.buf...)}
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
			if tm, isMap := p.val.(map[string]any); isMap && reflect.ValueOf(tm).Pointer() == t.ptr {
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
