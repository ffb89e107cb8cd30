package registry

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// unexpectedKeywords checks the keyword names of args against options
// type t exactly, as Python matches keyword arguments (encoding/json,
// which decodes them, would match them case-insensitively): the names are
// the json names of t's fields, found as encoding/json finds them. Objects
// bound to nested structs are checked the same way, at their path. It
// returns nil when every name matches, or when t is not a struct.
func unexpectedKeywords(t reflect.Type, args map[string]any) error {
	names, ok := fieldNames(t)
	if !ok {
		return nil
	}
	var unknown []string
	for k := range args {
		if _, ok := names[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(unknown) == 1 {
			return fmt.Errorf("%w: got an unexpected keyword argument %s%s", ErrBadOptions,
				pyQuote(unknown[0]), didYouMean("keyword names", unknown[0], names))
		}
		return fmt.Errorf("%w: got unexpected keyword arguments %s", ErrBadOptions, strings.Join(pyQuoteAll(unknown), ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if err := unexpectedKeys(names[k], args[k], k); err != nil {
			return err
		}
	}
	return nil
}

// unexpectedKeys checks the objects inside value v, bound to type t at
// path, for keys t's structs do not name exactly.
func unexpectedKeys(t reflect.Type, v any, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil // it reads its own JSON
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			names, _ := fieldNames(t)
			for _, k := range slices.Sorted(maps.Keys(x)) {
				ft, ok := names[k]
				if !ok {
					return fmt.Errorf("%w: argument %q: unexpected key %s%s", ErrBadOptions, path, pyQuote(k), didYouMean("keys", k, names))
				}
				if err := unexpectedKeys(ft, x[k], path+"."+k); err != nil {
					return err
				}
			}
		case reflect.Map:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := unexpectedKeys(t.Elem(), x[k], path+"."+k); err != nil {
					return err
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range x {
				if err := unexpectedKeys(t.Elem(), e, fmt.Sprintf("%s.%d", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fieldNames returns the json names of struct type t (through pointers)
// and their types, or false when t is not a struct. Like encoding/json, it
// skips unexported fields and json:"-", and promotes the fields of an
// embedded struct without a json name.
func fieldNames(t reflect.Type) (map[string]reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil, false
	}
	names := map[string]reflect.Type{}
	addFieldNames(t, names, map[reflect.Type]bool{})
	return names, true
}

func addFieldNames(t reflect.Type, names map[string]reflect.Type, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFieldNames(ft, names, seen)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := names[name]; !taken { // the shallower field wins, as in encoding/json
			names[name] = f.Type
		}
	}
}

// didYouMean suggests the name that matches k but for case, if any.
func didYouMean(what, k string, names map[string]reflect.Type) string {
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if strings.EqualFold(n, k) {
			return fmt.Sprintf(" (%s are case-sensitive: did you mean %s?)", what, pyQuote(n))
		}
	}
	return ""
}

// pyQuote quotes s as Python's repr quotes a plain string.
func pyQuote(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

func pyQuoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pyQuote(s)
	}
	return out
}
