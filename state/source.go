package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/dbhash"
)

// Source is a DB loaded once that many states share copy-on-write
// ([Shared.Share]): gold replay starts every task of a benchmark from one
// Source and pays only for what a task writes. The Source owns its DB: it
// keeps two deep copies of the DB it was made from — the one states share
// and a pristine one no tool ever sees — so the caller's map is never
// shared, and [Source.Verify] can tell, and undo, a change a misbehaving
// tool made to the shared copy. A Source is safe for concurrent use by the
// states that share it.
type Source struct {
	mu       sync.Mutex
	db       map[string]any // what states share
	pristine map[string]any // never handed out
	hash     string
	cache    *dbhash.Cache
	err      error // why the DB does not hash
}

// NewSource returns a Source holding deep copies of db (nil is an empty
// DB), with its hash and the canonical text of its tables computed once,
// for [Shared.Hash]. A DB that does not hash is reported by Shared.Hash.
func NewSource(db map[string]any) *Source {
	if db == nil {
		db = map[string]any{}
	}
	s := &Source{pristine: cloneMap(db)}
	s.reset()
	return s
}

// reset makes the shared copy a fresh copy of the pristine one, hashed.
func (s *Source) reset() {
	s.db = cloneMap(s.pristine)
	s.cache, s.err = dbhash.NewCache(s.db)
	if s.err == nil {
		s.hash, s.err = dbhash.Hash(s.db, dbhash.WithCache(s.cache))
	}
	if s.err != nil {
		s.hash, s.cache, s.err = "", nil, fmt.Errorf("state: hashing a source DB: %w", s.err)
	}
}

// ErrSourceChanged is returned (wrapped) by [Source.Verify] when the
// shared copy of a source DB was changed in place.
var ErrSourceChanged = errors.New("state: a tool changed a shared source DB")

// Verify reports whether the copy states share still equals the DB the
// Source was made from. When it does not — a tool wrote under
// [Shared.View], or outside the tables it named to [Shared.UpdateTables] —
// it puts a fresh copy in place, so states that share the Source from now
// on see the original DB, and returns an error wrapping
// [ErrSourceChanged] naming the changed tables; whatever was computed on
// a state sharing the changed copy may be wrong and should be computed
// again. Call it when no state that shares the Source is in use: it
// reads the whole DB (on all cores).
func (s *Source) Verify() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := diffTables(s.db, s.pristine)
	if changed == nil {
		return nil
	}
	s.reset()
	return fmt.Errorf("%w (tables %q)", ErrSourceChanged, changed)
}

// current returns the shared copy, its hash (or why it has none) and
// cache.
func (s *Source) current() (map[string]any, string, *dbhash.Cache, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db, s.hash, s.cache, s.err
}

// diffTables returns the sorted top-level keys whose values differ
// between a and b, or nil. Large tables are compared in chunks, on all
// cores.
func diffTables(a, b map[string]any) []string {
	type part struct {
		table string
		keys  []string // of an object table
		vals  []any    // of a list table
		from  int
	}
	changed := map[string]bool{}
	var parts []part
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			changed[k] = true
			continue
		}
		switch x := va.(type) {
		case map[string]any:
			y, ok := vb.(map[string]any)
			if !ok || len(x) != len(y) {
				changed[k] = true
				continue
			}
			keys := make([]string, 0, len(x))
			for mk := range x {
				keys = append(keys, mk)
			}
			for i := 0; i < len(keys); i += compareChunk {
				parts = append(parts, part{table: k, keys: keys[i:min(i+compareChunk, len(keys))]})
			}
		case []any:
			y, ok := vb.([]any)
			if !ok || len(x) != len(y) {
				changed[k] = true
				continue
			}
			for i := 0; i < len(x); i += compareChunk {
				parts = append(parts, part{table: k, vals: x[i:min(i+compareChunk, len(x))], from: i})
			}
		default:
			if !same(va, vb) {
				changed[k] = true
			}
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			changed[k] = true
		}
	}
	differs := make([]bool, len(parts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parts)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(parts); i = int(next.Add(1) - 1) {
				p := parts[i]
				if p.keys != nil {
					x, y := a[p.table].(map[string]any), b[p.table].(map[string]any)
					for _, k := range p.keys {
						w, ok := y[k]
						if !ok || !same(x[k], w) {
							differs[i] = true
							break
						}
					}
					continue
				}
				y := b[p.table].([]any)
				for j, v := range p.vals {
					if !same(v, y[p.from+j]) {
						differs[i] = true
						break
					}
				}
			}
		})
	}
	wg.Wait()
	for i, p := range parts {
		if differs[i] {
			changed[p.table] = true
		}
	}
	if len(changed) == 0 {
		return nil
	}
	out := make([]string, 0, len(changed))
	for k := range changed {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// compareChunk is how many records one goroutine compares at once.
const compareChunk = 32

// same compares two JSON-like values exactly (json.Number by its text).
// Leaves are compared in line: a DB is mostly small objects of strings
// and numbers.
func same(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameLeafOrTree(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i, v := range x {
			if !sameLeafOrTree(v, y[i]) {
				return false
			}
		}
		return true
	}
	return sameLeafOrTree(a, b)
}

// sameLeafOrTree compares a leaf in line and hands containers to same.
func sameLeafOrTree(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || x != x && y != y)
	case map[string]any, []any:
		return same(a, b)
	}
	return reflect.DeepEqual(a, b)
}
