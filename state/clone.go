package state

import (
	"encoding/json"
	"reflect"
)

// Clone returns a deep copy of a JSON-like value: maps with string keys,
// slices, and scalars. Maps and slices of any element type are copied
// recursively; scalars ([encoding/json.Number], strings, numbers, booleans,
// nil) and values of other types (structs, pointers) are returned as they are.
//
// Clone is what the state uses whenever a value crosses its lock, so a
// caller can never mutate the DB or the action log behind the state's back.
func Clone(v any) any {
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
			out[i] = Clone(e)
		}
		return out
	case Action:
		return Action(cloneMap(x))
	}
	return cloneReflect(reflect.ValueOf(v)).Interface()
}

// cloneMap deep-copies a JSON object, keeping nil as nil.
func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = Clone(e)
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
		return reflect.ValueOf(Clone(v.Interface()))
	}
	return cloneReflect(v)
}
