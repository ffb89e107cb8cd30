package dbhash

import (
	"hash"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// Large DBs are hashed in parallel: the canonical text of a top-level
// object is cut into segments (whole tables, or runs of records of large
// tables), encoded concurrently, and fed to SHA-256 in order as they
// complete. The bytes hashed are exactly those of the sequential path.

const (
	// minParallelRecords is the table size from which records are split
	// across workers.
	minParallelRecords = 64
	// segmentsPerWorker balances segments of uneven size.
	segmentsPerWorker = 4
)

// segment is one piece of the canonical text, in output order.
type segment struct {
	lit   string // literal text written before the records, if any
	pairs []pair // records (or tables, when table is false) to write
	first int    // index of pairs[0] within its object, for separators
	depth int    // depth of the object the pairs belong to
	tail  string // literal text written after the records
}

// planSegments cuts the top-level object m into segments, or returns nil
// when it is too small to be worth it.
func planSegments(m map[string]any, cfg *config, workers int) []segment {
	top := &canon{cfg: cfg, style: pyjson.Compact}
	tables := top.sortedPairs(m, 0, cfg.excluded)
	records := 0
	for _, t := range tables {
		if tm, ok := t.val.(map[string]any); ok {
			records += len(tm)
		}
	}
	if records < minParallelRecords*workers {
		return nil
	}
	var segs []segment
	open := "{"
	for i := range tables {
		t := &tables[i]
		sep := ""
		if i > 0 {
			sep = ","
		}
		tm, ok := t.val.(map[string]any)
		if !ok || len(tm) < minParallelRecords {
			segs = append(segs, segment{lit: open, pairs: []pair{*t}, first: i, depth: 0})
			open = ""
			continue
		}
		key, err := pyjson.AppendString(nil, t.key)
		if err != nil {
			return nil // let the sequential path report it
		}
		rc := &canon{cfg: cfg, style: pyjson.Compact}
		recs := append([]pair(nil), rc.sortedPairs(tm, 1, nil)...)
		// Every large table is cut into the same number of segments: record
		// sizes differ far more between tables than within one.
		chunk := max(4, len(recs)/(workers*segmentsPerWorker))
		head := open + sep + string(key) + ":{"
		open = ""
		for a := 0; a < len(recs); a += chunk {
			b := min(a+chunk, len(recs))
			seg := segment{lit: head, pairs: recs[a:b], first: a, depth: 1}
			if b == len(recs) {
				seg.tail = "}"
			}
			segs = append(segs, seg)
			head = ""
		}
	}
	if len(segs) == 0 {
		return nil
	}
	segs[len(segs)-1].tail += "}"
	if open != "" { // only excluded keys: nothing was opened
		return nil
	}
	return segs
}

// hashSegments encodes the segments on workers goroutines and writes them
// to h in order.
func hashSegments(h hash.Hash, segs []segment, cfg *config, workers int) error {
	type result struct {
		buf  []byte
		err  error
		done chan struct{}
	}
	results := make([]result, len(segs))
	for i := range results {
		results[i].done = make(chan struct{})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			c := &canon{cfg: cfg, style: pyjson.Compact}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(segs) {
					return
				}
				s := &segs[i]
				c.buf = (*segmentBufs.Get().(*[]byte))[:0]
				c.buf = append(c.buf, s.lit...)
				var err error
				for j := range s.pairs {
					if err = c.member(s.first+j, &s.pairs[j], s.depth); err != nil {
						break
					}
				}
				c.buf = append(c.buf, s.tail...)
				results[i].buf, results[i].err = c.buf, err
				close(results[i].done)
			}
		})
	}
	var firstErr error
	for i := range results {
		<-results[i].done
		if firstErr == nil {
			firstErr = results[i].err
		}
		if firstErr == nil {
			h.Write(results[i].buf)
		}
		buf := results[i].buf
		segmentBufs.Put(&buf)
		results[i].buf = nil
	}
	wg.Wait()
	return firstErr
}

// segmentBufs recycles segment buffers across calls, so hashing a large DB
// repeatedly allocates next to nothing.
var segmentBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 256<<10)
	return &b
}}

// parallelWorkers is how many goroutines hash one large DB.
func parallelWorkers() int { return runtime.GOMAXPROCS(0) }
