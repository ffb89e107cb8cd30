package dbhash

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// A Cache is built on several goroutines: every table is a job of its
// own, and a large table (an object of minParallelRecords members or
// more, or such a list that is not order-independent) is cut into runs of
// records, one job each, whose texts are then joined. The text of a
// table is the same as encoded in one go.

// tableBuild is the build of one table: either one job that encodes it
// whole, or parts, joined when all are done.
type tableBuild struct {
	key   string
	val   any
	t     cachedTable
	ok    bool // a table the cache holds
	err   error
	parts []*tablePart // the runs of a large table, in order
	keys  []string     // the sorted keys of a large object table
}

// tablePart is a run of a large table's records: members of an object
// table (pairs) or items of a list table (items), the first of which is
// the table's record number first.
type tablePart struct {
	pairs []pair
	items []any
	first int
	buf   []byte
	spans []span
	err   error
}

// buildTables encodes the tables of db that a Cache holds (objects and
// non-empty lists, not excluded) on workers goroutines.
func buildTables(db map[string]any, cfg *config, workers int) (map[string]cachedTable, error) {
	keys := make([]string, 0, len(db))
	for k := range db {
		if !cfg.excluded[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // errors are reported in table order
	builds := make([]tableBuild, len(keys))
	var jobs []func()
	for i, k := range keys {
		b := &builds[i]
		b.key, b.val = k, db[k]
		if b.split(cfg, workers) {
			for _, p := range b.parts {
				jobs = append(jobs, func() { p.encode(cfg) })
			}
			continue
		}
		jobs = append(jobs, func() {
			enc := &canon{cfg: cfg, style: pyjson.Compact}
			b.t, b.ok, b.err = enc.cacheTable(b.key, b.val)
		})
	}
	runJobs(jobs, workers)

	tables := make(map[string]cachedTable, len(builds))
	for i := range builds {
		b := &builds[i]
		if b.parts != nil {
			b.join()
		}
		if b.err != nil {
			return nil, fmt.Errorf("dbhash: caching table %q: %w", b.key, b.err)
		}
		if b.ok {
			tables[b.key] = b.t
		}
	}
	return tables, nil
}

// split cuts a large table into parts and reports whether it did. Parts
// write into pooled buffers, so even on one core a large table's text is
// not grown by doubling.
func (b *tableBuild) split(cfg *config, workers int) bool {
	chunk := func(n int) int { return max(4, n/(workers*segmentsPerWorker)) }
	switch x := b.val.(type) {
	case map[string]any:
		if len(x) < minParallelRecords {
			return false
		}
		enc := &canon{cfg: cfg, style: pyjson.Compact}
		pairs := slices.Clone(enc.sortedPairs(x, tableDepth, nil))
		b.keys = make([]string, len(pairs))
		for i := range pairs {
			b.keys[i] = pairs[i].key
		}
		n := chunk(len(pairs))
		for a := 0; a < len(pairs); a += n {
			b.parts = append(b.parts, &tablePart{pairs: pairs[a:min(a+n, len(pairs))], first: a})
		}
	case []any:
		if len(x) < minParallelRecords || cfg.oil[b.key] {
			return false
		}
		n := chunk(len(x))
		for a := 0; a < len(x); a += n {
			b.parts = append(b.parts, &tablePart{items: x[a:min(a+n, len(x))], first: a})
		}
	default:
		return false
	}
	return true
}

// encode writes the part's records, noting where each object's text lies.
func (p *tablePart) encode(cfg *config) {
	c := &canon{cfg: cfg, style: pyjson.Compact, buf: (*segmentBufs.Get().(*[]byte))[:0]}
	if p.items != nil {
		p.err = c.recordItems(p.items, p.first, nil, &p.spans)
	} else {
		p.err = c.recordMembers(p.pairs, p.first, nil, &p.spans)
	}
	p.buf = c.buf
}

// join assembles the parts' texts into the table's.
func (b *tableBuild) join() {
	open, close := byte('{'), byte('}')
	t := cachedTable{records: map[unsafe.Pointer][]byte{}}
	if list, ok := b.val.([]any); ok {
		open, close, t.list = '[', ']', list
	} else {
		t.table, t.keys = b.val.(map[string]any), b.keys
	}
	n, records := 2, 0
	for _, p := range b.parts {
		if p.err != nil {
			b.err = p.err
			b.release()
			return
		}
		n += len(p.buf)
		records += len(p.spans)
	}
	text := make([]byte, 0, n)
	text = append(text, open)
	t.records = make(map[unsafe.Pointer][]byte, records)
	t.text = text[:n]
	for _, p := range b.parts {
		at := len(text)
		text = append(text, p.buf...)
		t.index(p.spans, at)
		buf := p.buf
		segmentBufs.Put(&buf)
		p.buf = nil
	}
	t.text = append(text, close)
	b.t, b.ok, b.parts = t, true, nil
}

// release gives the parts' buffers back to the pool.
func (b *tableBuild) release() {
	for _, p := range b.parts {
		if p.buf != nil {
			buf := p.buf
			segmentBufs.Put(&buf)
			p.buf = nil
		}
	}
}

// runJobs runs the jobs on up to workers goroutines, the calling one
// included.
func runJobs(jobs []func(), workers int) {
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
			jobs[i]()
		}
	}
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
