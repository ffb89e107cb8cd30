package state

import (
	"maps"
	"sync"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/hashcache"
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
	shared bool // db is borrowed (Share): copy it before the first write
	// src is the Source shared by the last Share, with its hash and text
	// cache; nil when the DB came from elsewhere.
	src      *Source
	srcHash  string
	srcCache any // the Source's table cache (internal/hashcache)
	srcErr   error
	// order is the key order of the DB's objects: the Source's, and the
	// scenario's own entries (see Order).
	order dbOrder
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

// UpdateTables calls fn with the live DB while holding the write lock and
// returns fn's error; fn changes only the named top-level entries
// ("tables") of the DB. The DB is nil when none has been loaded; use
// [Shared.SetDB] to install one.
//
// UpdateTables does not roll back: changes fn made before returning an
// error stay. A tool that may fail should check everything first and
// mutate last, so a failed call leaves the DB untouched. fn must not keep
// references to the DB after returning or call other methods of s.
//
// A nil tables means every table; an empty one means none. On a DB
// installed with [Shared.Share] it copies just the named tables (all of
// them, for nil) before the first write to them, and leaves the others
// shared: a gold replay of a task that books a seat copies the
// reservations, not the flights. fn may read every table, and may add or
// remove top-level keys (a new key must hold a new value, not a table of
// the DB), but must not change anything inside a table it did not name —
// that table may be the shared Source's own.
func (s *Shared) UpdateTables(tables []string, fn func(db map[string]any) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.own(tables)
	defer s.writing()()
	return fn(s.db)
}

// writes maps the DB a write callback of a Shared holds (its root map's
// identity) to the Shared's Order, while the callback runs: [OrderOf].
var writes sync.Map

// writing makes s's DB known to OrderOf until the function it returns is
// called. The caller holds the write lock, and has made the DB's root the
// state's own (own), so no other state holds that map.
func (s *Shared) writing() func() {
	if s.db == nil {
		return func() {}
	}
	id := mapID(s.db)
	writes.Store(id, s.writeOrder())
	return func() { writes.Delete(id) }
}

// OrderOf returns the key order of db while db is the DB a write callback
// of a [Shared] was handed and that callback runs ([Shared.UpdateTables],
// the function of [Shared.Seed]): the callback notes the order of what it
// adds to the DB ([Order.Keep], [Order.Set]), as the Python tool's dict
// literals and assignments give it, copies what it returns with
// [Order.Copy], and changes single records with [Order.Writer]. The Order
// is valid until the callback returns. For any other map it returns nil,
// an Order that keeps no order (its methods accept nil).
func OrderOf(db map[string]any) *Order {
	if db == nil {
		return nil
	}
	o, _ := writes.Load(mapID(db))
	order, _ := o.(*Order)
	return order
}

// own makes the named tables of the DB the state's own (all of them for
// nil), leaving the others shared. The caller holds the lock.
func (s *Shared) own(tables []string) {
	if tables == nil {
		s.ownAll()
		return
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
			s.db[t] = s.cloneTable(s.db[t])
			delete(s.borrowed, t)
		}
	}
}

// ownAll makes the whole DB the state's own. The caller holds the lock.
func (s *Shared) ownAll() {
	if s.shared {
		if s.order.byObject() {
			s.db, s.shared = s.writeOrder().cloneKeeping(s.db).(map[string]any), false
		} else {
			s.db, s.shared = cloneMap(s.db), false
		}
	}
	for t := range s.borrowed {
		if _, ok := s.db[t]; ok {
			s.db[t] = s.cloneTable(s.db[t])
		}
	}
	s.borrowed = nil
}

// cloneTable copies a table the state makes its own, with the key order
// of its objects (Order.Clone). The caller holds the lock.
func (s *Shared) cloneTable(v any) any {
	var out any
	if s.order.byObject() {
		out = s.writeOrder().cloneKeeping(v)
	} else {
		out = Clone(v)
	}
	if m, ok := v.(map[string]any); ok && m != nil {
		s.writeOrder().aliasTable(m, out.(map[string]any)) // a record added later goes last
	}
	return out
}

// readOrder and writeOrder are the state's key order for a callback
// holding its read or write lock.
func (s *Shared) readOrder() *Order  { return &Order{d: &s.order} }
func (s *Shared) writeOrder() *Order { return &Order{d: &s.order, write: true} }

// ViewOrdered is [Shared.View] with the DB's key order: fn gets the live
// DB and an [Order] to copy what it returns from it in the Python
// original's order ([Order.Copy]). The Order is valid until fn returns;
// under the read lock it changes nothing.
func (s *Shared) ViewOrdered(fn func(db map[string]any, o *Order) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fn(s.db, s.readOrder())
}

// SetDB replaces the DB with db. The state takes ownership of db: the caller
// must not use it afterwards (pass [Clone](db) to keep a private copy).
func (s *Shared) SetDB(db map[string]any) {
	s.mu.Lock()
	s.db, s.shared, s.borrowed = db, false, nil
	s.src, s.srcHash, s.srcCache, s.srcErr = nil, "", nil, nil
	s.order = dbOrder{}
	s.mu.Unlock()
}

// Share installs src's DB without copying it, copy-on-write: reads see
// the Source's copy itself, and a write copies first — [Shared.UpdateTables]
// the whole DB, [Shared.UpdateTables] the tables it names, a [Writer] the
// records it owns. Many states can share one Source this way: gold replay
// starts every task from the same loaded DB and only pays for what a task
// writes. The Source's copy stays unchanged as long as every writer keeps
// the rules (nothing writes under [Shared.View]; UpdateTables names every
// table its function changes); [Source.Verify] checks that they did.
func (s *Shared) Share(src *Source) {
	v := src.current()
	s.mu.Lock()
	s.install(src, v)
	s.mu.Unlock()
}

// install shares src, whose current state is v. The caller holds the lock.
func (s *Shared) install(src *Source, v sourceView) {
	s.db, s.shared, s.borrowed = v.db, true, nil
	s.src, s.srcHash, s.srcCache, s.srcErr = src, v.hash, v.cache, v.err
	s.order = dbOrder{base: v.order}
}

// Hash returns the [dbhash.Hash] of the DB (of an empty DB when none is
// loaded). A DB shared with a [Source] and not written since reports the
// Source's hash without reading the DB; one written in part reuses the
// Source's canonical text of the tables it still shares.
func (s *Shared) Hash() (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hashLocked()
}

// ViewHashed calls fn with the live DB (nil when none is loaded), the live
// action log and a function that returns the DB's hash as [Shared.Hash]
// does (the Source's, read not computed, for a DB shared and unwritten),
// all as of one moment, under one read lock, nothing copied: what a
// harness's summary needs. hash may be called only before fn returns. fn must not modify the DB or the log,
// keep references to them after returning, or call other methods of s.
func (s *Shared) ViewHashed(fn func(db map[string]any, actions []Action, hash func() (string, error)) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fn(s.db, s.actions, s.hashLocked)
}

// hashLocked is Hash; the caller holds the lock.
func (s *Shared) hashLocked() (string, error) {
	if s.src != nil && s.shared {
		return s.srcHash, s.srcErr
	}
	if s.srcCache != nil {
		return hashcache.Hash(s.srcCache, s.db)
	}
	return dbhash.Hash(s.db)
}

// Snapshot returns a deep copy of the DB, or nil when none is loaded.
func (s *Shared) Snapshot() map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return cloneMap(s.db)
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
// when none has been set ([Shared.StartScenario], [Shared.Seed]).
func (s *Shared) Domain() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.domain == "" {
		return DefaultDomain
	}
	return s.domain
}

// Notifier returns the notifier, or nil when none is set. Tools skip their
// server messages silently when it is nil (unit tests, gold replay).
func (s *Shared) Notifier() Notifier {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.notifier
}

// NextCallIndex increments and returns the call counter for name. Counters
// start at 1, are kept per name and are cleared by [Shared.StartScenario]; tools use
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

// clear empties the scenario and sets its domain; s.mu must be held.
func (s *Shared) clear(domain string) {
	s.db, s.shared, s.borrowed = nil, false, nil
	s.src, s.srcHash, s.srcCache, s.srcErr = nil, "", nil, nil
	s.order = dbOrder{}
	s.actions = nil
	s.values = nil
	s.counts = nil
	s.domain = domain
}

// StartScenario begins a new scenario in one step: it clears the state in
// place (the DB, the action log, the values, the call counters), and sets
// the scenario's domain and
// notifier. No reader sees the state half-way.
func (s *Shared) StartScenario(domain string, n Notifier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear(domain)
	s.notifier = n
}

// Seed is starting data merged into a scenario by [Shared.Seed]. Only what
// it sets changes; the state takes ownership of the maps and slices in it
// (not of a Source's DB, which it shares copy-on-write). DB and Actions
// are used only when ReplaceDB and ReplaceLog say so, so that a nil DB or
// log can be installed too.
type Seed struct {
	DB        map[string]any // the new DB, when ReplaceDB
	ReplaceDB bool
	// Source, when not nil, is installed as the new DB copy-on-write, as
	// [Shared.Share] installs it, in place of DB (whatever ReplaceDB says).
	Source *Source
	// Tables are the top-level tables the function given to
	// [Shared.Seed] may change, as [Shared.UpdateTables] names them: nil
	// means every table, so a DB shared with a Source is made the
	// state's own in full before the function runs; otherwise only the
	// named tables are copied, and the others stay shared.
	Tables     []string
	Actions    []Action // the new action log, when ReplaceLog
	ReplaceLog bool
	Values     map[string]any // merged into the values, key by key
	CallCounts map[string]int // replaces the call counters when not nil
	Domain     string         // replaces the domain when not empty
}

// Seed merges sd into the state and then, when then is not nil, calls it
// with the resulting DB — all under one lock, so no tool call or reader
// sees the scenario half seeded. It returns then's error; what was merged
// stays merged. Like UpdateTables' function, then must not keep the DB or call
// methods of s (the lock is held). then may change the tables sd.Tables
// names (every table, when nil): of a DB shared with a Source (sd.Source,
// or an earlier Share) those are first made the state's own, as
// UpdateTables(sd.Tables, …) does, so pass a nil then when there is
// nothing to run, to keep the DB shared.
func (s *Shared) Seed(sd Seed, then func(db map[string]any) error) error {
	var v sourceView
	if sd.Source != nil {
		v = sd.Source.current() // before s.mu: Share's order
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case sd.Source != nil:
		s.install(sd.Source, v)
	case sd.ReplaceDB:
		s.db, s.shared, s.borrowed = sd.DB, false, nil
		s.src, s.srcHash, s.srcCache, s.srcErr = nil, "", nil, nil
		s.order = dbOrder{}
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
	s.own(sd.Tables)
	defer s.writing()()
	return then(s.db)
}
