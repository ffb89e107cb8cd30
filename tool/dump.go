package tool

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
)

// ModelDump returns the JSON tree of a parameters struct as pydantic's
// model_dump() returns the validated model: every field under its json
// name, in a fresh map[string]any; nested structs become maps, slices
// become []any, integers stay Go integers (int64), a [encoding/json.Number]
// stays a json.Number (a number, with its exact text; an empty one is
// None), strings and booleans stay as they are. A port of a Python write tool records it as the
// action's arguments (state.NewAction), as the original records
// params.model_dump(). Fields
// without a json name ("-") are left out; a nil pointer or a nil slice
// is None (nil).
func ModelDump(params any) map[string]any {
	m, _ := dumpValue(reflect.ValueOf(params)).(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

func dumpValue(v reflect.Value) any {
	if v.IsValid() && v.Type() == numberType {
		if v.String() == "" {
			return nil // no number was bound
		}
		return json.Number(v.String())
	}
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return dumpValue(v.Elem())
	case reflect.Struct:
		out := make(map[string]any, v.NumField())
		dumpFields(v, out)
		return out
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = dumpValue(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := make(map[string]any, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			if k, ok := iter.Key().Interface().(string); ok {
				out[k] = dumpValue(iter.Value())
			}
		}
		return out
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if u := v.Uint(); u > math.MaxInt64 {
			return u
		}
		return int64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	}
	return v.Interface()
}

// dumpFields adds v's exported fields to out, flattening embedded structs
// as encoding/json does.
func dumpFields(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			dumpFields(v.Field(i), out)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = dumpValue(v.Field(i))
	}
}
