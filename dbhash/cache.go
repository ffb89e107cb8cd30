package dbhash

import (
	"bytes"
	"fmt"
	"hash"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Cache holds the canonical text of the tables (top-level object members)
// of one DB that does not change — say, the DB every task of a benchmark
// starts from — and of their records (the objects a table holds, by key
// or by position). Hashing a DB that still shares some of those tables or
// records (the very same maps: copy-on-write copies share what they did
// not write) then reuses their text instead of encoding them again: a
// table one write copied is encoded record by record, taking the text of
// every record the write did not copy. Gold replay of many tasks hashes
// each final DB this way.
//
// The promise the caller makes: while the Cache is in use, nothing
// reachable from the DB it was built from is modified — not its tables,
// not their records, not any map or list inside a record, at any depth.
// Copy-on-write copies must copy every map and list on the path to what
// they change. Two traps break the promise without touching the source by
// name:
//
//   - append on a list copied by slicing (append(l[:len(l)-1], x), or
//     append(l, x) when cap(l) > len(l)) writes into the array the source
//     list shares: copy the list (slices.Clone) before changing it;
//   - a function handed a shared table (state.UpdateTables, say) that
//     edits a table or record it did not ask to own edits the source.
//
// A broken promise is not detected as the hash runs: hashes with the
// Cache are then silently stale. [Cache.Verify] re-encodes the source and
// reports what changed; tests that share a DB copy-on-write should call
// it after their edits.
//
// The Cache holds the tables and records themselves, so they stay alive
// (and their identity unique) as long as it does. A Cache is safe for
// concurrent use; the zero value holds no tables.
type Cache struct {
	cfg    *config
	tables map[string]cachedTable
}

type cachedTable struct {
	table map[string]any // an object table itself: identity, and kept alive
	list  []any          // or a list table
	text  []byte         // its canonical text
	// records are the canonical texts of the table's object values (a
	// list's items, an object's member values), by the map's identity;
	// nil for an order-independent list, whose items are sorted.
	records map[unsafe.Pointer][]byte
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

// tableDepth is the depth of a table's records in a DB's canonical text
// (the DB is depth 0, a table 1).
const tableDepth = 1

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
		t, ok, err := enc.cacheTable(k, v)
		if err != nil {
			return nil, fmt.Errorf("dbhash: caching table %q: %w", k, err)
		}
		if ok {
			c.tables[k] = t
		}
	}
	return c, nil
}

// cacheTable encodes the table k of a DB with its records' spans, and
// reports whether it is a table the cache holds: an object or a non-empty
// list.
func (c *canon) cacheTable(k string, v any) (cachedTable, bool, error) {
	t := cachedTable{records: map[unsafe.Pointer][]byte{}}
	c.buf = c.buf[:0]
	var spans []span
	var err error
	switch x := v.(type) {
	case map[string]any:
		t.table = x
		spans, err = c.recordsObject(x, nil)
	case []any:
		if len(x) == 0 {
			return t, false, nil
		}
		t.list = x
		if c.cfg.oil[k] {
			t.records = nil
			err = c.unordered(x, tableDepth)
		} else {
			spans, err = c.recordsList(x, nil)
		}
	default:
		return t, false, nil
	}
	if err != nil {
		return t, false, err
	}
	t.text = append([]byte(nil), c.buf...)
	for _, s := range spans {
		t.records[s.record] = t.text[s.start:s.end:s.end]
	}
	return t, true, nil
}

// Verify encodes again every table the cache holds, from the very maps
// and lists of the DB it was built from, and returns an error naming the
// tables whose text changed since [NewCache]: something edited the source
// DB, breaking the Cache's promise, and hashes with the Cache may be
// stale. It costs what NewCache did; it is a check for tests and debug
// runs, not for every hash.
func (c *Cache) Verify() error {
	if c.cfg == nil {
		return nil
	}
	enc := &canon{cfg: c.cfg, style: pyjson.Compact}
	var changed []string
	for k, t := range c.tables {
		var v any = t.table
		if t.table == nil {
			v = t.list
		}
		now, _, err := enc.cacheTable(k, v)
		if err != nil || !bytes.Equal(now.text, t.text) {
			changed = append(changed, k)
		}
	}
	if changed == nil {
		return nil
	}
	slices.Sort(changed)
	return fmt.Errorf("dbhash: the DB a Cache was built from was edited in place (tables %q): hashes with the Cache are stale", changed)
}

// span is where the text of a record (an object value of a table) lies
// in the table's text.
type span struct {
	record     unsafe.Pointer
	start, end int
}

// recordsList writes a list table, taking the text of the records found
// in known, and returns where the text of each object item lies.
func (c *canon) recordsList(list []any, known map[unsafe.Pointer][]byte) ([]span, error) {
	if tableDepth > MaxDepth {
		return nil, ErrTooDeep
	}
	var spans []span
	c.buf = append(c.buf, '[')
	for i, e := range list {
		if i > 0 {
			c.buf = append(c.buf, c.style.Item...)
		}
		if err := c.record(e, known, &spans); err != nil {
			return nil, err
		}
	}
	c.buf = append(c.buf, ']')
	return spans, nil
}

// recordsObject writes an object table as recordsList does a list.
func (c *canon) recordsObject(m map[string]any, known map[unsafe.Pointer][]byte) ([]span, error) {
	var spans []span
	pairs := c.sortedPairs(m, tableDepth, nil)
	defer clear(pairs) // drop references to the DB
	c.buf = append(c.buf, '{')
	for i := range pairs {
		p := &pairs[i]
		if _, isList := p.val.([]any); isList && c.cfg.oil[p.key] {
			if err := c.member(i, p, tableDepth); err != nil {
				return nil, err
			}
			continue
		}
		if i > 0 {
			c.buf = append(c.buf, c.style.Item...)
		}
		var err error
		if c.buf, err = pyjson.AppendString(c.buf, p.key); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		c.buf = append(c.buf, c.style.Key...)
		if err := c.record(p.val, known, &spans); err != nil {
			return nil, fmt.Errorf("%s: %w", p.key, err)
		}
	}
	c.buf = append(c.buf, '}')
	return spans, nil
}

// record writes one value of a table: the known text of an object record,
// or its encoding, noting where an object's text lies.
func (c *canon) record(v any, known map[unsafe.Pointer][]byte, spans *[]span) error {
	m, isObject := v.(map[string]any)
	if !isObject {
		return c.value(v, tableDepth+1)
	}
	id := mapPointer(m)
	if text, ok := known[id]; ok {
		c.buf = append(c.buf, text...)
		c.flush()
		return nil
	}
	start := len(c.buf)
	if err := c.value(m, tableDepth+1); err != nil {
		return err
	}
	if c.h == nil { // building a cache: the whole text stays in buf
		*spans = append(*spans, span{id, start, len(c.buf)})
	}
	c.flush()
	return nil
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
	pairs := enc.sortedPairs(m, 0, cfg.excluded) // depth 0: the tables below use the depths beyond
	defer clear(pairs)                           // drop references to the DB
	h.Write([]byte{'{'})
	for i := range pairs {
		p := &pairs[i]
		if t, ok := c.tables[p.key]; ok && (t.same(p.val) || t.records != nil) {
			var err error
			enc.buf = enc.buf[:0]
			if i > 0 {
				enc.buf = append(enc.buf, ',')
			}
			if enc.buf, err = pyjson.AppendString(enc.buf, p.key); err != nil {
				return fmt.Errorf("%w: %w", ErrUnsupported, err)
			}
			enc.buf = append(enc.buf, ':')
			if t.same(p.val) {
				h.Write(enc.buf)
				h.Write(t.text)
				continue
			}
			enc.h = h // flushes as it goes
			switch x := p.val.(type) {
			case map[string]any:
				_, err = enc.recordsObject(x, t.records)
			case []any:
				if !cfg.oil[p.key] {
					_, err = enc.recordsList(x, t.records)
					break
				}
				err = enc.unordered(x, tableDepth)
			default:
				err = enc.value(p.val, tableDepth)
			}
			enc.h = nil
			if err != nil {
				return fmt.Errorf("%s: %w", p.key, err)
			}
			h.Write(enc.buf)
			continue
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
func sameMap(a, b map[string]any) bool { return mapPointer(a) == mapPointer(b) }

// mapPointer is m's identity.
func mapPointer(m map[string]any) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }
