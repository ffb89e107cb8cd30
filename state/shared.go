package state

import (
	"maps"
	"sync"
)

// DefaultDomain is the tool domain reported when none has been set.
const DefaultDomain = "default"

// Shared is the state every tool of one scenario shares: the JSON DB, the
// action log, free-form values and per-name call counters, plus the tool
// domain and the notifier. It is safe for concurrent use.
//
// The zero value is an empty state with no DB, no notifier and the domain
// [DefaultDomain]. A Shared must not be copied after first use.
type Shared struct {
	mu     sync.RWMutex
	db     map[string]any
	shared bool // db is borrowed (ShareDB): copy it before the first write
	// borrowed are the top-level entries of a DB made private table by
	// table (UpdateTables) that still alias the shared DB.
	borrowed map[string]bool
	actions  []Action
	values   map[string]any
	counts   map[string]int
	domain   string
	notifier Notifier
}

// New returns an empty state. It is equivalent to new(Shared).
func New() *Shared { return new(Shared) }

// View calls fn with the live DB while holding a read lock and returns fn's
// error. The DB is nil when none has been loaded. fn must not modify the DB,
// keep references to it after returning, or call other methods of s.
func (s *Shared) View(fn func(db map[string]any) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fn(s.db)
}

// Update calls fn with the live DB while holding the write lock and returns
// fn's error. The DB is nil when none has been loaded; use [Shared.SetDB] to
// install one.
//
// Update does not roll back: changes fn made before returning an error stay.
// A tool that may fail should check everything first and mutate last, so a
// failed call leaves the DB untouched. fn must not keep references to the DB
// after returning or call other methods of s.
func (s *Shared) Update(fn func(db map[string]any) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ownAll()
	return fn(s.db)
}

// UpdateTables is [Shared.Update] for a function that changes only the
// named top-level entries ("tables") of the DB. On a DB installed with
// [Shared.ShareDB] it copies just those tables before the first write to
// them, and leaves the others shared: a gold replay of a task that books a
// seat copies the reservations, not the flights. fn may read every table,
// and may add or remove top-level keys (a new key must hold a new value,
// not a table of the DB), but must not change anything inside a table it
// did not name — that table may be the shared DB's own. A nil tables
// means every table, as Update; an empty one means none. On a DB that is
// not shared it is exactly Update.
func (s *Shared) UpdateTables(tables []string, fn func(db map[string]any) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tables == nil {
		s.ownAll()
		return fn(s.db)
	}
	if s.shared {
		if s.db == nil {
			s.shared = false
		} else {
			s.borrowed = make(map[string]bool, len(s.db))
			for k := range s.db {
				s.borrowed[k] = true
			}
			s.db, s.shared = maps.Clone(s.db), false
		}
	}
	for _, t := range tables {
		if s.borrowed[t] {
			s.db[t] = Clone(s.db[t])
			delete(s.borrowed, t)
		}
	}
	return fn(s.db)
}

// ownAll makes the whole DB the state's own. The caller holds the lock.
func (s *Shared) ownAll() {
	if s.shared {
		s.db, s.shared = cloneMap(s.db), false
	}
	for t := range s.borrowed {
		if _, ok := s.db[t]; ok {
			s.db[t] = Clone(s.db[t])
		}
	}
	s.borrowed = nil
}

// SetDB replaces the DB with db. The state takes ownership of db: the caller
// must not use it afterwards (pass [Clone](db) to keep a private copy).
func (s *Shared) SetDB(db map[string]any) {
	s.mu.Lock()
	s.db, s.shared, s.borrowed = db, false, nil
	s.mu.Unlock()
}

// ShareDB installs db without copying it, copy-on-write: reads see db
// itself, and a write copies first — [Shared.Update] the whole DB,
// [Shared.UpdateTables] the tables it names. Many states can share one DB
// this way: gold replay starts every task from the same loaded DB and only
// pays for the tables a task writes. db stays unmodified as long as every
// writer keeps the rules: nothing writes under [Shared.View], and
// UpdateTables names every table its function changes. The caller must
// not modify db while any state shares it.
func (s *Shared) ShareDB(db map[string]any) {
	s.mu.Lock()
	s.db, s.shared, s.borrowed = db, true, nil
	s.mu.Unlock()
}

// SharesDB reports whether the state still reads, whole and unwritten, the
// DB installed by the last [Shared.ShareDB]. It turns false at the first
// write (even one that changed nothing) and after anything that installs
// or removes a DB ([Shared.SetDB], [Shared.TakeDB], [Shared.Reset], ...).
func (s *Shared) SharesDB() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.shared
}

// TakeDB removes the DB from the state and returns it for the caller to
// own: the state's own DB, or a deep copy when it still shares one
// ([Shared.ShareDB]). The state is left with no DB.
func (s *Shared) TakeDB() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ownAll()
	db := s.db
	s.db = nil
	return db
}

// HasDB reports whether a non-empty DB is loaded. Like the Python original,
// an empty DB counts as not loaded.
func (s *Shared) HasDB() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.db) > 0
}

// Snapshot returns a deep copy of the DB, or nil when none is loaded.
func (s *Shared) Snapshot() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return cloneMap(s.db)
}

// SetValue stores a deep copy of v under key, outside the DB. Values carry
// the scenario data that is not part of the hashed DB (what Python's
// shared_state_init merged into its state dict).
func (s *Shared) SetValue(key string, v any) {
	v = Clone(v)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = make(map[string]any)
	}
	s.values[key] = v
}

// Value returns a deep copy of the value stored under key.
func (s *Shared) Value(key string) (any, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.values[key]
	if !ok {
		return nil, false
	}
	return Clone(v), true
}

// Values returns a deep copy of all values, or an empty map.
func (s *Shared) Values() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := cloneMap(s.values)
	if out == nil {
		out = map[string]any{}
	}
	return out
}

// Domain returns the tool domain of the current scenario, or [DefaultDomain]
// when none has been set.
func (s *Shared) Domain() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.domain == "" {
		return DefaultDomain
	}
	return s.domain
}

// SetDomain sets the tool domain of the current scenario. An empty domain
// means [DefaultDomain].
func (s *Shared) SetDomain(domain string) {
	s.mu.Lock()
	s.domain = domain
	s.mu.Unlock()
}

// Notifier returns the notifier, or nil when none is set. Tools skip their
// server messages silently when it is nil (unit tests, gold replay).
func (s *Shared) Notifier() Notifier {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.notifier
}

// SetNotifier sets the notifier; nil removes it.
func (s *Shared) SetNotifier(n Notifier) {
	s.mu.Lock()
	s.notifier = n
	s.mu.Unlock()
}

// NextCallIndex increments and returns the call counter for name. Counters
// start at 1, are kept per name and are cleared by [Shared.Reset]; tools use
// them to mint ids such as "TRF-ABC123-001".
func (s *Shared) NextCallIndex(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = make(map[string]int)
	}
	s.counts[name]++
	return s.counts[name]
}

// CallCounts returns a copy of the call counters.
func (s *Shared) CallCounts() map[string]int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := maps.Clone(s.counts)
	if out == nil {
		out = map[string]int{}
	}
	return out
}

// Reset clears the scenario in place: the DB, the action log, the values,
// the call counters and the domain. The notifier belongs to the connection,
// not the scenario, and is kept. Tools holding s keep seeing the same state.
func (s *Shared) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear("")
}

// clear empties the scenario and sets its domain; s.mu must be held.
func (s *Shared) clear(domain string) {
	s.db, s.shared, s.borrowed = nil, false, nil
	s.actions = nil
	s.values = nil
	s.counts = nil
	s.domain = domain
}

// StartScenario begins a new scenario in one step: it clears the state in
// place, as [Shared.Reset] does, and sets the scenario's domain and
// notifier. No reader sees the state half-way.
func (s *Shared) StartScenario(domain string, n Notifier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear(domain)
	s.notifier = n
}

// Seed is starting data merged into a scenario by [Shared.Seed]. Only what
// it sets changes; the state takes ownership of the maps and slices in it.
// DB and Actions are used only when ReplaceDB and ReplaceLog say so, so
// that a nil DB or log can be installed too.
type Seed struct {
	DB         map[string]any // the new DB, when ReplaceDB
	ReplaceDB  bool
	Actions    []Action // the new action log, when ReplaceLog
	ReplaceLog bool
	Values     map[string]any // merged into the values, key by key
	CallCounts map[string]int // replaces the call counters when not nil
	Domain     string         // replaces the domain when not empty
}

// Seed merges sd into the state and then, when then is not nil, calls it
// with the resulting DB — all under one lock, so no tool call or reader
// sees the scenario half seeded. It returns then's error; what was merged
// stays merged. Like Update's function, then must not keep the DB or call
// methods of s (the lock is held).
func (s *Shared) Seed(sd Seed, then func(db map[string]any) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sd.ReplaceDB {
		s.db, s.shared, s.borrowed = sd.DB, false, nil
	}
	if sd.ReplaceLog {
		s.actions = sd.Actions
	}
	if len(sd.Values) > 0 && s.values == nil {
		s.values = make(map[string]any, len(sd.Values))
	}
	maps.Copy(s.values, sd.Values)
	if sd.CallCounts != nil {
		s.counts = sd.CallCounts
	}
	if sd.Domain != "" {
		s.domain = sd.Domain
	}
	if then == nil {
		return nil
	}
	s.ownAll()
	return then(s.db)
}
