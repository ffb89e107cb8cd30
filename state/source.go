package state

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/voiceeval/schematools/internal/hashcache"
)

// Source is a DB loaded once that many states share copy-on-write
// ([Shared.Share]): gold replay starts every task of a benchmark from one
// Source and pays only for what a task writes. The Source owns the DB
// states share — the caller's map is never shared — and keeps a
// fingerprint of each of its tables, so that [Source.Verify] can tell a
// change a misbehaving tool made to it, and a way to get the original DB
// again, to undo that change. A Source is safe for concurrent use by the
// states that share it.
type Source struct {
	mu     sync.Mutex
	db     map[string]any    // what states share
	prints map[string]uint64 // the fingerprint of each top-level entry of db as installed
	order  *keyOrder         // the key order of db's objects, when it was decoded from files
	// fresh returns a new copy of the original DB, nothing else holds,
	// with the fingerprints of its tables and its key order when it has
	// them (nil when not).
	fresh func() (loaded, error)
	hash  string
	cache any   // internal/hashcache
	err   error // why the DB does not hash
}

// loaded is a DB as a load returns it: the DB, and the fingerprints of
// its tables and its key order when the decoder took them (nil when not).
type loaded struct {
	db     map[string]any
	prints map[string]uint64
	order  *keyOrder
}

// NewSource returns a Source holding a deep copy of db (nil is an empty
// DB), with its hash and the canonical text of its tables computed once,
// for [Shared.Hash]. A DB that does not hash is reported by Shared.Hash.
// It keeps a second, private deep copy of db, from which [Source.Verify]
// restores the DB a tool changed; [LoadSource] needs none.
func NewSource(db map[string]any) *Source {
	if db == nil {
		db = map[string]any{}
	}
	pristine := cloneMap(db)
	s := &Source{fresh: func() (loaded, error) { return loaded{db: cloneMap(pristine)}, nil }}
	s.install(loaded{db: cloneMap(pristine)})
	return s
}

// LoadSource returns a Source of the DB [LoadDB] loads from root and
// rel, as a Source of a loader calling LoadDB would be, with the same
// errors. The files are fingerprinted as they are decoded, which spares
// reading the whole DB once more to fingerprint it, and the key order of
// their objects is kept (see [Order]): the states sharing the Source give
// tools' results the order of the files.
func LoadSource(root, rel string) (*Source, error) {
	return loadSource(func() (loaded, error) { return loadDBDir(root, rel, true) })
}

// LoadSourceFS returns a Source of the DB [LoadDBFS] loads from fsys and
// rel, as LoadSource does from a directory.
func LoadSourceFS(fsys fs.FS, rel string) (*Source, error) {
	return loadSource(func() (loaded, error) { return loadDBFS(fsys, rel, true) })
}

// loadSource is the Source of a load that may also return the tables'
// fingerprints and the key order.
func loadSource(load func() (loaded, error)) (*Source, error) {
	l, err := load()
	if err != nil {
		return nil, err
	}
	s := &Source{fresh: load}
	s.install(l)
	return s, nil
}

// install makes l's DB the DB states share, and fingerprints and hashes
// it: the fingerprints (unless l has those of its tables) and the cache
// are computed side by side, on all cores.
func (s *Source) install(l loaded) {
	db, prints := l.db, l.prints
	if db == nil {
		db, prints, l.order = map[string]any{}, nil, nil
	}
	s.db, s.order = db, l.order
	var wg sync.WaitGroup
	if prints != nil {
		s.prints = prints
	} else {
		wg.Go(func() { s.prints = fingerprints(db) })
	}
	s.cache, s.err = hashcache.New(db)
	if s.err == nil {
		s.hash, s.err = hashcache.Hash(s.cache, db)
	}
	if s.err != nil {
		s.hash, s.cache, s.err = "", nil, fmt.Errorf("state: hashing a source DB: %w", s.err)
	}
	wg.Wait()
}

// ErrSourceChanged is returned (wrapped) by [Source.Verify] when the
// shared copy of a source DB was changed in place.
var ErrSourceChanged = errors.New("state: a tool changed a shared source DB")

// Verify reports whether the DB states share still equals the DB the
// Source was made from. When it does not — a tool wrote under
// [Shared.View], or outside the tables it named to [Shared.UpdateTables] —
// it puts the original DB in place again (a fresh copy, or for
// [LoadSource] the DB loaded again), so states that share the Source from
// now on see the original, and returns an error wrapping
// [ErrSourceChanged] naming the changed tables; whatever was computed on
// a state sharing the changed DB may be wrong and should be computed
// again. Call it when no state that shares the Source is in use: it
// reads the whole DB (on all cores) and compares the fingerprint of each
// table with the one taken when the DB was installed, so a change goes
// unnoticed only if it leaves a 64-bit fingerprint unchanged (odds of
// about 2^-64).
func (s *Source) Verify() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := changedTables(fingerprints(s.db), s.prints)
	if changed == nil {
		return nil
	}
	l, err := s.fresh()
	if err != nil {
		return fmt.Errorf("%w (tables %q), and getting the original DB again failed: %w", ErrSourceChanged, changed, err)
	}
	s.install(l)
	return fmt.Errorf("%w (tables %q)", ErrSourceChanged, changed)
}

// sourceView is what a state takes from a Source it shares: the shared
// copy, its hash (or why it has none), cache and key order.
type sourceView struct {
	db    map[string]any
	hash  string
	cache any // internal/hashcache
	err   error
	order *keyOrder
}

// current returns what a state sharing the Source takes from it now.
func (s *Source) current() sourceView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sourceView{s.db, s.hash, s.cache, s.err, s.order}
}

// changedTables returns the sorted top-level keys whose fingerprints
// differ between now and was, or that only one of them has; nil when
// none.
func changedTables(now, was map[string]uint64) []string {
	var out []string
	for k, p := range now {
		if q, ok := was[k]; !ok || p != q {
			out = append(out, k)
		}
	}
	for k := range was {
		if _, ok := now[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
