package dbhash

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"fmt"
	"hash"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// tableCache holds the canonical text of the tables (top-level object members)
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
//   - a function handed a shared table (state.Shared.UpdateTables, say) that
//     edits a table or record it did not ask to own edits the source.
//
// A broken promise is not detected as the hash runs: hashes with the
// Cache are then silently stale. Cache.verify re-encodes the source and
// reports what changed; tests that share a DB copy-on-write should call
// it after their edits.
//
// The Cache holds the tables and records themselves, so they stay alive
// (and their identity unique) as long as it does. A Cache is safe for
// concurrent use; the zero value holds no tables.
type tableCache struct {
	cfg    *config
	tables map[string]cachedTable
	// prefix holds, for the leading run of the source's tables in
	// canonical order, the SHA-256 state after "{" and the first i+1 of
	// them: a hash whose first tables are still the source's resumes there
	// instead of hashing their text again.
	prefix []prefixState
}

// prefixState is the SHA-256 state after the canonical text up to and
// including the table key's table, and the states at marks inside that
// table's text.
type prefixState struct {
	key   string
	state []byte
	marks []mark
}

// mark is the SHA-256 state after the canonical text up to and including
// the first records records of a table (with the tables before it the
// source's): a hash whose table still starts with those very records
// resumes there.
type mark struct {
	records int
	state   []byte
}

// markEvery is about how many bytes of a table's text lie between two
// marks.
const markEvery = 32 << 10

type cachedTable struct {
	table map[string]any // an object table itself: identity, and kept alive
	keys  []string       // an object table's keys, sorted
	list  []any          // or a list table
	text  []byte         // its canonical text
	// records are the canonical texts of the table's object values (a
	// list's items, an object's member values), by the map's identity;
	// nil for an order-independent list, whose items are sorted.
	records map[unsafe.Pointer][]byte
	// ends and ptrs are, for each record in the order of the text, where
	// its text ends and its identity (nil for one that is not an object);
	// nil for an order-independent list.
	ends []int
	ptrs []unsafe.Pointer
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

// newCache builds the cache of db's tables that are objects or non-empty
// lists, with the options that the hashes using it will have.
//
// Large tables are encoded on several goroutines (GOMAXPROCS), in runs of
// records; the text is the same as on one.
func (o options) newCache(db map[string]any) (*tableCache, error) {
	cfg := newConfig(o, nil)
	tables, err := buildTables(db, cfg, parallelWorkers())
	if err != nil {
		return nil, err
	}
	c := &tableCache{cfg: cfg, tables: tables}
	c.prefix = c.prefixStates(db, &canon{cfg: cfg, style: pyjson.Compact})
	return c, nil
}

// prefixStates hashes the leading run of db's cached tables, in canonical
// order, and keeps the state after each.
func (c *tableCache) prefixStates(db map[string]any, enc *canon) []prefixState {
	h := sha256.New()
	m, ok := h.(encoding.BinaryMarshaler)
	if !ok {
		return nil
	}
	pairs := enc.sortedPairs(db, 0, c.cfg.excluded)
	defer clear(pairs)
	var out []prefixState
	h.Write([]byte{'{'})
	for i, p := range pairs {
		t, ok := c.tables[p.key]
		if !ok || !t.same(p.val) {
			break
		}
		head, err := tableHead(nil, i, p.key)
		if err != nil {
			break
		}
		h.Write(head)
		ps := prefixState{key: p.key}
		written := 0
		if t.records != nil {
			for j, end := range t.ends {
				if end-written < markEvery || j+1 == len(t.ends) {
					continue
				}
				h.Write(t.text[written:end])
				written = end
				if state, err := m.MarshalBinary(); err == nil {
					ps.marks = append(ps.marks, mark{records: j + 1, state: state})
				}
			}
		}
		h.Write(t.text[written:])
		if ps.state, err = m.MarshalBinary(); err != nil {
			break
		}
		out = append(out, ps)
	}
	return out
}

// resumeInside restores h to the latest mark inside the i-th table whose
// records the table v still starts with, when the tables before it were
// the cache's own (resume covered them) and v is a copy of the cache's
// i-th table. It writes the rest of v's text and reports whether it did;
// when it did not, h is as it was.
func (c *tableCache) resumeInside(h hash.Hash, enc *canon, i int, p *pair) (bool, error) {
	if i >= len(c.prefix) || c.prefix[i].key != p.key || len(c.prefix[i].marks) == 0 {
		return false, nil
	}
	t, ok := c.tables[p.key]
	if !ok || t.records == nil || t.same(p.val) {
		return false, nil
	}
	u, ok := h.(encoding.BinaryUnmarshaler)
	if !ok {
		return false, nil
	}
	var pairs []pair
	var items []any
	same := 0 // leading records that are the cache's own
	switch x := p.val.(type) {
	case map[string]any:
		if t.table == nil || len(t.keys) == 0 || !isRecord(x[t.keys[0]], t.ptrs[0]) {
			return false, nil // not even the first record is the source's: no mark applies
		}
		pairs = enc.pairsAfter(x, &t, tableDepth)
		for same < len(pairs) && same < len(t.keys) && pairs[same].key == t.keys[same] && t.ptrs[same] != nil && isRecord(pairs[same].val, t.ptrs[same]) {
			same++
		}
	case []any:
		if t.list == nil {
			return false, nil
		}
		items = x
		for same < len(items) && same < len(t.ptrs) && t.ptrs[same] != nil && isRecord(items[same], t.ptrs[same]) {
			same++
		}
	default:
		return false, nil
	}
	marks := c.prefix[i].marks
	k := -1
	for k+1 < len(marks) && marks[k+1].records <= same {
		k++
	}
	if k < 0 {
		return false, nil
	}
	if err := u.UnmarshalBinary(marks[k].state); err != nil {
		return false, nil
	}
	from := marks[k].records
	enc.buf, enc.h, enc.src, enc.hasSrc = enc.buf[:0], h, t, true
	defer func() { enc.h, enc.src, enc.hasSrc = nil, cachedTable{}, false }()
	var err error
	if pairs != nil || items == nil {
		defer clear(pairs)
		err = enc.recordMembers(pairs[from:], from, t.records, nil)
		enc.buf = append(enc.buf, '}')
	} else {
		err = enc.recordItems(items[from:], from, t.records, nil)
		enc.buf = append(enc.buf, ']')
	}
	if err != nil {
		return true, fmt.Errorf("%s: %w", p.key, err)
	}
	h.Write(enc.buf)
	return true, nil
}

// isRecord reports whether v is the object record whose identity is id.
func isRecord(v any, id unsafe.Pointer) bool {
	m, ok := v.(map[string]any)
	return ok && mapPointer(m) == id
}

// tableHead appends what comes before the i-th table's text: the
// separator and the key.
func tableHead(buf []byte, i int, key string) ([]byte, error) {
	if i > 0 {
		buf = append(buf, ',')
	}
	buf, err := pyjson.AppendString(buf, key)
	if err != nil {
		return buf, fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return append(buf, ':'), nil
}

// resume restores h to the state after the longest leading run of pairs
// that are the cache's own tables, and returns how many pairs that
// covers (0: nothing restored, h untouched).
func (c *tableCache) resume(h hash.Hash, pairs []pair) int {
	n := 0
	for n < len(c.prefix) && n < len(pairs) && pairs[n].key == c.prefix[n].key && c.tables[pairs[n].key].same(pairs[n].val) {
		n++
	}
	if n == 0 {
		return 0
	}
	u, ok := h.(encoding.BinaryUnmarshaler)
	if !ok || u.UnmarshalBinary(c.prefix[n-1].state) != nil {
		h.Reset()
		return 0
	}
	return n
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
		t.keys = slices.Sorted(maps.Keys(x))
		spans, err = c.recordsObject(x, nil, nil)
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
	t.index(spans, 0)
	return t, true, nil
}

// index notes the spans of the table's records, found at offset at of
// its text: the text of each object record, and where each record ends.
func (t *cachedTable) index(spans []span, at int) {
	for _, s := range spans {
		if s.record != nil {
			t.records[s.record] = t.text[at+s.start : at+s.end : at+s.end]
		}
		t.ends = append(t.ends, at+s.end)
		t.ptrs = append(t.ptrs, s.record)
	}
}

// verify encodes again every table the cache holds (on all cores), from
// the very maps and lists of the DB it was built from, and returns an error naming the
// tables whose text changed since newCache: something edited the source
// DB, breaking the Cache's promise, and hashes with the Cache may be
// stale. It costs what NewCache did; it is a check for tests and debug
// runs, not for every hash.
func (c *tableCache) verify() error {
	if c.cfg == nil {
		return nil
	}
	source := make(map[string]any, len(c.tables))
	for k, t := range c.tables {
		source[k] = t.table
		if t.table == nil {
			source[k] = t.list
		}
	}
	now, err := buildTables(source, c.cfg, parallelWorkers())
	var changed []string
	for k, t := range c.tables {
		if err != nil { // some table no longer encodes: find which
			now, err1 := buildTables(map[string]any{k: source[k]}, c.cfg, parallelWorkers())
			if err1 != nil || !bytes.Equal(now[k].text, t.text) {
				changed = append(changed, k)
			}
			continue
		}
		if !bytes.Equal(now[k].text, t.text) {
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
	if tableDepth > maxDepth {
		return nil, ErrTooDeep
	}
	var spans []span
	c.buf = append(c.buf, '[')
	if err := c.recordItems(list, 0, known, &spans); err != nil {
		return nil, err
	}
	c.buf = append(c.buf, ']')
	return spans, nil
}

// recordItems writes items of a list table, the first of which is the
// table's item number first, as recordsList does.
func (c *canon) recordItems(items []any, first int, known map[unsafe.Pointer][]byte, spans *[]span) error {
	for i := 0; i < len(items); i++ {
		e := items[i]
		if c.h != nil && c.hasSrc {
			if n := c.src.sameItems(items[i:], first+i); n > 0 {
				c.writeSource(first+i, n)
				i += n - 1
				continue
			}
		}
		if first+i > 0 {
			c.buf = append(c.buf, c.style.Item...)
		}
		if err := c.record(e, known, spans); err != nil {
			return err
		}
	}
	return nil
}

// recordsObject writes an object table as recordsList does a list. from,
// when not the zero cachedTable, is the table m was copied from: its
// sorted keys spare sorting m's.
func (c *canon) recordsObject(m map[string]any, known map[unsafe.Pointer][]byte, from *cachedTable) ([]span, error) {
	var spans []span
	var pairs []pair
	if from != nil && from.table != nil {
		pairs = c.pairsAfter(m, from, tableDepth)
	} else {
		pairs = c.sortedPairs(m, tableDepth, nil)
	}
	defer clear(pairs) // drop references to the DB
	c.buf = append(c.buf, '{')
	if err := c.recordMembers(pairs, 0, known, &spans); err != nil {
		return nil, err
	}
	c.buf = append(c.buf, '}')
	return spans, nil
}

// recordMembers writes members of an object table in key order, the
// first of which is the table's member number first, as recordsObject
// does.
func (c *canon) recordMembers(pairs []pair, first int, known map[unsafe.Pointer][]byte, spans *[]span) error {
	for j := 0; j < len(pairs); j++ {
		p, i := &pairs[j], first+j
		if c.h != nil && c.hasSrc {
			if n := c.src.sameMembers(pairs[j:], i); n > 0 {
				c.writeSource(i, n)
				j += n - 1
				continue
			}
		}
		if _, isList := p.val.([]any); isList && c.cfg.oil[p.key] {
			if err := c.member(i, p, tableDepth); err != nil {
				return err
			}
			if c.h == nil && spans != nil { // building: a record with no identity
				*spans = append(*spans, span{nil, len(c.buf), len(c.buf)})
			}
			continue
		}
		if i > 0 {
			c.buf = append(c.buf, c.style.Item...)
		}
		var err error
		if c.buf, err = pyjson.AppendString(c.buf, p.key); err != nil {
			return fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		c.buf = append(c.buf, c.style.Key...)
		if err := c.record(p.val, known, spans); err != nil {
			return fmt.Errorf("%s: %w", p.key, err)
		}
	}
	return nil
}

// sameMembers returns how many of pairs, the members of a copy of t from
// its member number i on, are t's own members i, i+1, …: the same key
// and the very same object record. Their text, separators included, is
// then t's text from the end of record i-1 on.
func (t *cachedTable) sameMembers(pairs []pair, i int) int {
	n := 0
	for n < len(pairs) && i+n < len(t.keys) && pairs[n].key == t.keys[i+n] && t.ptrs[i+n] != nil && isRecord(pairs[n].val, t.ptrs[i+n]) {
		n++
	}
	return n
}

// sameItems is sameMembers for the items of a copy of a list table.
func (t *cachedTable) sameItems(items []any, i int) int {
	if t.list == nil {
		return 0
	}
	n := 0
	for n < len(items) && i+n < len(t.ptrs) && t.ptrs[i+n] != nil && isRecord(items[n], t.ptrs[i+n]) {
		n++
	}
	return n
}

// writeSource hashes the text of records i to i+n-1 of the source table
// c.src, with the separators before them, straight from its text: what
// is buffered goes first.
func (c *canon) writeSource(i, n int) {
	t := &c.src
	start := 1 // past the table's opening bracket
	if i > 0 {
		start = t.ends[i-1]
	}
	c.h.Write(c.buf)
	c.buf = c.buf[:0]
	c.h.Write(t.text[start:t.ends[i+n-1]])
}

// record writes one value of a table: the known text of an object record,
// or its encoding, noting where an object's text lies.
func (c *canon) record(v any, known map[unsafe.Pointer][]byte, spans *[]span) error {
	m, isObject := v.(map[string]any)
	if !isObject {
		start := len(c.buf)
		if err := c.value(v, tableDepth+1); err != nil {
			return err
		}
		if c.h == nil && spans != nil { // building: a record with no identity
			*spans = append(*spans, span{nil, start, len(c.buf)})
		}
		return nil
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

// hashCached hashes the top-level object m, taking the text of unchanged
// tables from the cache and encoding the others.
func hashCached(h hash.Hash, m map[string]any, cfg *config) error {
	c := cfg.cache
	if c.cfg == nil {
		c = &tableCache{cfg: cfg} // the zero cache: nothing cached
	}
	if !maps.Equal(c.cfg.excluded, cfg.excluded) || !maps.Equal(c.cfg.oil, cfg.oil) {
		return fmt.Errorf("dbhash: the cache was built with other options than the hash")
	}
	enc := canonPool.Get().(*canon)
	defer canonPool.Put(enc)
	enc.cfg, enc.style, enc.h, enc.buf = cfg, pyjson.Compact, nil, enc.buf[:0]
	pairs := enc.sortedPairs(m, 0, cfg.excluded) // depth 0: the tables below use the depths beyond
	defer clear(pairs)                           // drop references to the DB
	start := c.resume(h, pairs)
	if start < len(pairs) { // the first table that is not the cache's own may still start as it did
		done, err := c.resumeInside(h, enc, start, &pairs[start])
		if err != nil {
			return err
		}
		if done {
			start++
		} else if start == 0 {
			h.Write([]byte{'{'})
		}
	} else if start == 0 {
		h.Write([]byte{'{'})
	}
	for i := start; i < len(pairs); i++ {
		p := &pairs[i]
		if t, ok := c.tables[p.key]; ok && (t.same(p.val) || t.records != nil) {
			var err error
			if enc.buf, err = tableHead(enc.buf[:0], i, p.key); err != nil {
				return err
			}
			if t.same(p.val) {
				h.Write(enc.buf)
				h.Write(t.text)
				continue
			}
			enc.h, enc.src, enc.hasSrc = h, t, true // flushes as it goes
			switch x := p.val.(type) {
			case map[string]any:
				_, err = enc.recordsObject(x, t.records, &t)
			case []any:
				if !cfg.oil[p.key] {
					_, err = enc.recordsList(x, t.records)
					break
				}
				err = enc.unordered(x, tableDepth)
			default:
				err = enc.value(p.val, tableDepth)
			}
			enc.h, enc.src, enc.hasSrc = nil, cachedTable{}, false
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

// pairsAfter returns m's members in key order, as sortedPairs does, for
// an m copied from the cached table from: the keys m still has come in
// from's order, and only the keys added since are sorted in.
func (c *canon) pairsAfter(m map[string]any, from *cachedTable, depth int) []pair {
	i := depth - c.base
	for len(c.pairs) <= i {
		c.pairs = append(c.pairs, nil)
	}
	pairs := c.pairs[i][:0]
	for _, k := range from.keys {
		if v, ok := m[k]; ok {
			pairs = append(pairs, pair{prefix: keyPrefix(k), key: k, val: v})
		}
	}
	if len(pairs) < len(m) {
		for k, v := range m {
			if _, old := from.table[k]; old {
				continue
			}
			p := pair{prefix: keyPrefix(k), key: k, val: v}
			at, _ := slices.BinarySearchFunc(pairs, p, func(a, b pair) int { return comparePairs(&a, &b) })
			pairs = slices.Insert(pairs, at, p)
		}
	}
	c.pairs[i] = pairs
	return pairs
}

// sameMap reports whether a and b are the same map (not equal maps).
func sameMap(a, b map[string]any) bool { return mapPointer(a) == mapPointer(b) }

// mapPointer is m's identity.
func mapPointer(m map[string]any) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }
