package state

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Key order. A Python tool returns the dicts of its DB, and json.dumps
// writes them in their insertion order: a record read from the DB in the
// data file's order, the keys a tool added after them in the order it
// added them. That is the text a model reads (pipecat writes
// json.dumps(result) into the tool message). A Go map has no order, so
// the state keeps the order beside the DB, per DB, in two parts:
//
//   - by set of keys: the order of the first object of the file with that
//     set — the records of a table share their keys and, nearly always,
//     their order, so one entry serves thousands of records, survives
//     every copy, and costs the decoder one hash per key;
//   - by object (the map's identity), for the objects whose order differs
//     from their set's — the few of a file (the retail DB's Sneakers list
//     their options in another order than its Pet Beds), and what tools
//     write: a record they build, a key they add. A copy made for a write
//     ([Writer], [Shared.UpdateTables]) takes its original's entry.
//
// The DB's maps, and so its hash, are not touched.

// keyOrder is the key order of a loaded DB's objects; it does not change
// once made, so the states sharing a Source share it.
type keyOrder struct {
	sets map[uint64][]string         // pyjson.KeySetHash → the file's first order for the set
	objs map[unsafe.Pointer][]string // an object (its map's identity) → its order
}

// newKeyOrder makes a DB's key order from what the decoder noted.
func newKeyOrder(o *pyjson.KeyOrders) *keyOrder {
	k := &keyOrder{sets: o.Sets, objs: make(map[unsafe.Pointer][]string, len(o.Objects))}
	for _, ob := range o.Objects {
		k.objs[mapID(ob.Map)] = ob.Keys
	}
	return k
}

// mergeKeyOrders makes the key order of a sharded DB from its shards'
// (tables, in file-name order, and parts, each shard's orders). A set of
// keys whose order differs between shards keeps the first shard's; the
// objects of a later shard that had that set in the shard's own first
// order are then looked for and kept by object.
func mergeKeyOrders(tables []string, values map[string]any, parts map[string]*pyjson.KeyOrders) *keyOrder {
	k := &keyOrder{sets: map[uint64][]string{}, objs: map[unsafe.Pointer][]string{}}
	for _, t := range tables {
		part := parts[t]
		if part == nil {
			continue
		}
		for _, ob := range part.Objects {
			k.objs[mapID(ob.Map)] = ob.Keys
		}
		var clash map[uint64][]string
		for set, keys := range part.Sets {
			prev, ok := k.sets[set]
			switch {
			case !ok:
				k.sets[set] = keys
			case !slices.Equal(prev, keys):
				if clash == nil {
					clash = map[uint64][]string{}
				}
				clash[set] = keys
			}
		}
		if clash != nil {
			k.keepClashing(values[t], clash)
		}
	}
	return k
}

// keepClashing keeps by object every object of v (a shard) whose set of
// keys is one of clash's and that has no entry yet: it has the shard's
// first order for that set, clash's.
func (k *keyOrder) keepClashing(v any, clash map[uint64][]string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) >= 2 {
			if keys, ok := clash[pyjson.KeySetHash(x)]; ok {
				if _, has := k.objs[mapID(x)]; !has {
					k.objs[mapID(x)] = keys
				}
			}
		}
		for _, e := range x {
			k.keepClashing(e, clash)
		}
	case []any:
		for _, e := range x {
			k.keepClashing(e, clash)
		}
	}
}

// dbOrder is a state's key order: its DB's, when it was loaded with one
// (base), and the scenario's own entries for the objects its writes made
// or changed.
type dbOrder struct {
	base *keyOrder
	own  map[unsafe.Pointer][]string
	// alias maps a shallow copy of a table that a write made (to change
	// some of its records) to the table it copied: the copy has the
	// original's order, and keys added since come last. Noting the
	// original, rather than working its order out, keeps a write on a
	// table of thousands of records cheap.
	alias map[unsafe.Pointer]map[string]any
}

// known reports whether the state knows any key order.
func (d *dbOrder) known() bool { return d.base != nil || len(d.own) > 0 }

// aliasTable notes that copied is a shallow copy of the table orig, in a
// write (o may be nil: a Writer without an order).
func (o *Order) aliasTable(orig, copied map[string]any) {
	if o == nil || !o.write || !o.d.known() {
		return
	}
	if o.d.alias == nil {
		o.d.alias = map[unsafe.Pointer]map[string]any{}
	}
	o.d.alias[mapID(copied)] = orig
}

// byObject reports whether some object has an entry of its own.
func (d *dbOrder) byObject() bool {
	return len(d.own) > 0 || len(d.alias) > 0 || d.base != nil && len(d.base.objs) > 0
}

// Order is the key order of a state's DB objects, as the Python original's
// dicts keep it: what a tool copies into its result with [Order.Copy], so
// that the result serialises as the original's does, and where a write
// tool says the order of what it adds ([Order.Keep], [Order.Set]). Get it
// from [Shared.ViewOrdered] (the tool package's DB.ReadOrdered), from
// [OrderOf] inside [Shared.UpdateTables] (or tool.DB.Write), or a
// [Writer]'s Order; it is valid until the callback returns.
//
// A state knows the order of a DB loaded by [LoadSource],
// [LoadSourceFS] or a [SourceCache] and installed with [Shared.Share] or
// [Seed.Source]: the order of each object in its file. A DB given as a
// map ([Shared.SetDB], [NewSource], [LoadDB]'s result) has lost it; its
// objects have the orders tools give them, and the others none. Under a
// read ([Shared.ViewOrdered]) an Order only reads: Keep, Set, Delete and
// Clone change nothing but the maps.
type Order struct {
	d     *dbOrder
	write bool
}

// record sets m's order, in a write.
func (o *Order) record(m map[string]any, keys []string) {
	if o == nil || !o.write || m == nil {
		return
	}
	if o.d.own == nil {
		o.d.own = map[unsafe.Pointer][]string{}
	}
	o.d.own[mapID(m)] = keys
}

// lookup returns the order noted for m — its own, else its set's — and
// whether there is one. The keys may not be m's exactly (a tool changed
// it): see fit.
func (o *Order) lookup(m map[string]any) ([]string, bool) {
	if o == nil || o.d == nil {
		return nil, false
	}
	if len(o.d.own) > 0 {
		if keys, ok := o.d.own[mapID(m)]; ok {
			return keys, true
		}
	}
	if len(o.d.alias) > 0 {
		if orig, ok := o.d.alias[mapID(m)]; ok {
			keys, ok := o.lookup(orig)
			return fit(keys, orig), ok
		}
	}
	b := o.d.base
	if b == nil {
		return nil, false
	}
	if len(b.objs) > 0 {
		if keys, ok := b.objs[mapID(m)]; ok {
			return keys, true
		}
	}
	// Two sets may share a hash (odds of about 2^-64 for two of the same
	// size): fit, which every use of the order goes through, checks the
	// keys.
	if keys, ok := b.sets[pyjson.KeySetHash(m)]; ok && len(keys) == len(m) {
		return keys, true
	}
	return nil, false
}

// sameKeys reports whether keys are exactly m's keys.
func sameKeys(keys []string, m map[string]any) bool {
	if len(keys) != len(m) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// Of returns m's keys in order: the order noted for m (its own, or its
// set's in the DB's file) without the keys m no longer has, followed by
// the keys it has that the order lacks, sorted; all of them sorted when
// no order is known (the only order a Go map can give, as before).
func (o *Order) Of(m map[string]any) []string { return slices.Clone(o.of(m)) }

// of is Of, sharing the noted slice: not to be changed.
func (o *Order) of(m map[string]any) []string {
	keys, _ := o.lookup(m)
	return fit(keys, m)
}

// fit returns keys restricted to m's keys, then m's other keys sorted.
func fit(keys []string, m map[string]any) []string {
	if sameKeys(keys, m) {
		return keys
	}
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if _, ok := m[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	rest := len(out)
	for k := range m {
		if !seen[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out[rest:])
	return out
}

// Copy returns a deep copy of v for a tool's result: every object as a
// pyvalue.Dict (an ordered dict, which json.Marshal, the agent's context
// and the rtvi wire write in its order) in the order [Order.Of] gives;
// lists copied; a struct copied with what its fields of interface type
// (and its slices and structs) hold copied the same way, so a result
// struct may hold records of the live DB; anything else as [Clone] copies
// it. When the state knows no key order at all (a DB set as a map, no
// order kept by a tool), Copy is Clone: objects stay maps, written with
// sorted keys as before.
//
// v is typically a record of the live DB, or a value holding some: the
// order of an object is found by its identity first, so copy the DB's own
// maps, not copies of them made with Clone.
func (o *Order) Copy(v any) any {
	if o == nil || o.d == nil || !o.d.known() {
		return (*Order)(nil).copy(v)
	}
	return o.copy(v)
}

// copy is Copy; a nil o copies objects as maps.
func (o *Order) copy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil || o == nil {
			return Clone(x)
		}
		keys := o.of(x)
		d := make(pyvalue.Dict, len(keys))
		for i, k := range keys {
			d[i] = pyvalue.Item{Key: k, Value: o.copy(x[k])}
		}
		return d
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = o.copy(e)
		}
		return out
	case pyvalue.Dict:
		d := make(pyvalue.Dict, len(x))
		for i, it := range x {
			d[i] = pyvalue.Item{Key: it.Key, Value: o.copy(it.Value)}
		}
		return d
	case nil, string, bool, json.Number, float64, int, int64:
		return v
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array:
		return o.copyValue(rv).Interface()
	}
	return Clone(v)
}

// copyValue is copy for the fields and items of a struct or a typed
// slice: an interface holding an object (or a list, a struct) gets an
// ordered copy; a typed map, which cannot hold an ordered dict, a Clone.
func (o *Order) copyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.ValueOf(o.copy(v.Interface()))
		if !c.Type().AssignableTo(v.Type()) {
			return reflect.ValueOf(Clone(v.Interface()))
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(c)
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if f := out.Field(i); f.CanSet() && deep(f.Kind()) {
				f.Set(o.copyValue(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() || !deep(v.Type().Elem().Kind()) {
			return cloneReflect(v)
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(o.copyValue(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		if deep(v.Type().Elem().Kind()) {
			for i := range v.Len() {
				out.Index(i).Set(o.copyValue(v.Index(i)))
			}
		}
		return out
	}
	return cloneReflect(v)
}

// deep reports whether a value of kind k may hold objects to copy.
func deep(k reflect.Kind) bool {
	switch k {
	case reflect.Interface, reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		return true
	}
	return false
}

// Keep notes that the object m, which a write tool built to put in the DB
// (or to return), has its keys in the order keys — the order the Python
// tool's dict literal or its assignments give them — and returns m. Keys
// m lacks are ignored and keys it has beyond them come after, sorted.
func (o *Order) Keep(m map[string]any, keys ...string) map[string]any {
	if o != nil && o.write {
		seen := make(map[string]bool, len(keys))
		o.record(m, slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
			dup := seen[k]
			seen[k] = true
			return dup
		}))
	}
	return m
}

// Set is Python's m[key] = v: a key m has keeps its place, a new one goes
// last.
func (o *Order) Set(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok && o != nil && o.write {
		keys := o.of(m)
		o.record(m, append(keys[:len(keys):len(keys)], key))
	}
	m[key] = v
}

// Delete is Python's del m[key] (or m.pop(key)): the other keys keep
// their order.
func (o *Order) Delete(m map[string]any, key string) {
	if _, ok := m[key]; ok && o != nil && o.write {
		keys := slices.DeleteFunc(o.Of(m), func(k string) bool { return k == key })
		o.record(m, keys)
	}
	delete(m, key)
}

// Clone returns a deep copy of v, as [Clone] does (objects stay maps),
// whose objects keep the order of their originals: a value a write tool
// copies from one place of the DB into another (the variant's options an
// order item takes) keeps its order there.
func (o *Order) Clone(v any) any {
	if o == nil || !o.write || !o.d.byObject() {
		return Clone(v)
	}
	return o.cloneKeeping(v)
}

// cloneKeeping is Clone, noting the order of every copied object that has
// an entry of its own (one found by its set needs none: its copy has the
// same keys).
func (o *Order) cloneKeeping(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := maps.Clone(x)
		for k, e := range out {
			switch e.(type) {
			case map[string]any, []any:
				out[k] = o.cloneKeeping(e)
			default:
				out[k] = Clone(e)
			}
		}
		o.carry(x, out)
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = o.cloneKeeping(e)
		}
		return out
	}
	return Clone(v)
}

// carry gives the copy the original's own entry, if it has one.
func (o *Order) carry(orig, copied map[string]any) {
	if keys, ok := o.d.own[mapID(orig)]; ok {
		o.record(copied, keys)
	} else if table, ok := o.d.alias[mapID(orig)]; ok {
		o.aliasTable(table, copied)
	} else if b := o.d.base; b != nil {
		if keys, ok := b.objs[mapID(orig)]; ok {
			o.record(copied, keys)
		}
	}
}

// cloneRecord is the copy a Writer makes of a record it is about to
// change: Clone, and the copy's own order noted at the top (so that a key
// the tool adds without Set goes after the record's keys, not among them
// sorted).
func (o *Order) cloneRecord(rec map[string]any) map[string]any {
	if o == nil || !o.write || !o.d.known() {
		return Clone(rec).(map[string]any)
	}
	out := o.cloneKeeping(rec).(map[string]any)
	if _, ok := o.d.own[mapID(out)]; !ok {
		if keys, ok := o.lookup(rec); ok {
			o.record(out, fit(keys, rec))
		}
	}
	return out
}
