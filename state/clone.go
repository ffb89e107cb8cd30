package state

import (
	"encoding/json"
	"maps"
	"reflect"
	"runtime"
	"sync"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Clone returns a deep copy of a JSON-like value: maps with string keys,
// slices, and scalars. Maps and slices of any element type are copied
// recursively; scalars ([encoding/json.Number], strings, numbers, booleans,
// nil) and values of other types (structs, pointers) are returned as they are.
//
// Clone is what the state uses whenever a value crosses its lock, so a
// caller can never mutate the DB or the action log behind the state's back.
//
// The copy of a DB that a write callback holds ([OrderOf] knows it: inside
// [Shared.UpdateTables], say) keeps its objects' key order: a callback that
// works on a copy and puts its tables back keeps the order the state knew.
func Clone(v any) any {
	if m, ok := v.(map[string]any); ok && m != nil {
		if o := OrderOf(m); o != nil && o.d.byObject() {
			return o.cloneKeeping(m)
		}
	}
	return clone(v)
}

// clone is Clone without the look for a DB in a write.
func clone(v any) any {
	switch x := v.(type) {
	case nil, string, bool, json.Number, float64, int, int64:
		return v
	case map[string]any:
		return cloneMap(x)
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	case Action:
		return Action(cloneMap(x))
	case pyvalue.Dict:
		if x == nil {
			return x
		}
		out := make(pyvalue.Dict, len(x))
		for i, it := range x {
			out[i] = pyvalue.Item{Key: it.Key, Value: clone(it.Value)}
		}
		return out
	}
	return cloneReflect(reflect.ValueOf(v)).Interface()
}

// cloneMap deep-copies a JSON object, keeping nil as nil. maps.Clone
// copies the table wholesale, which is far cheaper than re-inserting every
// key; only members holding containers are then replaced by their copies.
func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	if len(m) >= parallelCloneMin {
		if w := runtime.GOMAXPROCS(0); w > 1 {
			return cloneMapParallel(m, w)
		}
	}
	out := maps.Clone(m)
	for k, e := range out {
		switch e.(type) {
		case nil, string, bool, json.Number, float64, int, int64:
		default:
			out[k] = clone(e)
		}
	}
	return out
}

// cloneReflect copies maps and slices of arbitrary element types; anything
// else is returned unchanged.
func cloneReflect(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(iter.Key(), cloneElem(iter.Value(), v.Type().Elem()))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(cloneElem(v.Index(i), v.Type().Elem()))
		}
		return out
	}
	return v
}

// cloneElem clones one element and converts it back to the container's
// element type (an interface element may hold a map that Clone copies).
func cloneElem(v reflect.Value, elem reflect.Type) reflect.Value {
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Zero(elem)
		}
		return reflect.ValueOf(clone(v.Interface()))
	}
	return cloneReflect(v)
}

// parallelCloneMin is the object size from which members are copied on
// several goroutines: DB tables of hundreds of records and more.
const parallelCloneMin = 128

// cloneMapParallel copies a large object's members in 4w chunks, one
// goroutine each (records differ in size, so more chunks than cores keeps
// the cores busy), then assembles the copy on the calling goroutine: a map
// must not be written concurrently.
func cloneMapParallel(m map[string]any, w int) map[string]any {
	keys := make([]string, 0, len(m))
	vals := make([]any, 0, len(m))
	for k, v := range m {
		keys = append(keys, k)
		vals = append(vals, v)
	}
	var wg sync.WaitGroup
	chunk := (len(vals) + 4*w - 1) / (4 * w)
	for start := 0; start < len(vals); start += chunk {
		part := vals[start:min(start+chunk, len(vals))]
		wg.Go(func() {
			for i, v := range part {
				part[i] = clone(v)
			}
		})
	}
	wg.Wait()
	out := make(map[string]any, len(m))
	for i, k := range keys {
		out[k] = vals[i]
	}
	return out
}
