package rtvi

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Object is a JSON object that keeps its members in order. Bots build
// their messages with a meaningful order (role before content), and a Go
// map would lose it; an Object marshals, sanitises and prints in the order
// its members were given.
//
// An Object behaves like the Python dict built by inserting its members in
// order: when a key occurs more than once, [Object.Get] and [PythonRepr]
// see the last value at the position of the first occurrence.
// [Object.MarshalJSON] writes every member as it is, duplicates included.
type Object []Member

// Member is one key and its value in an [Object].
type Member struct {
	Key   string
	Value any
}

// Get returns the value of the last member named key, and whether there
// is one.
func (o Object) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order as a JSON object, each value as
// encoding/json writes it (nil slices and maps inside are null). A nil
// Object is the empty object {}, not null.
func (o Object) MarshalJSON() ([]byte, error) {
	return appendOrderedJSON(nil, o, 0)
}

var errObjectDepth = errors.New("rtvi: value nests too deeply to marshal")

// appendOrderedJSON writes v as encoding/json would, walking Objects,
// []any and map[string]any itself so that a deep tree of Objects is
// encoded in one pass rather than re-validated by encoding/json at every
// level. Anything else goes to json.Marshal.
func appendOrderedJSON(dst []byte, v any, depth int) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case Object:
		if depth >= treeMaxDepth {
			return dst, errObjectDepth
		}
		dst = append(dst, '{')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendMarshaled(dst, m.Key); err != nil {
				return dst, err
			}
			dst = append(dst, ':')
			if dst, err = appendOrderedJSON(dst, m.Value, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		if depth >= treeMaxDepth {
			return dst, errObjectDepth
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendOrderedJSON(dst, e, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		if depth >= treeMaxDepth {
			return dst, errObjectDepth
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendMarshaled(dst, k); err != nil {
				return dst, err
			}
			dst = append(dst, ':')
			if dst, err = appendOrderedJSON(dst, x[k], depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return appendMarshaled(dst, v)
}

func appendMarshaled(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// dict returns o as the kernel's ordered dict, which has its shape.
func (o Object) dict() pyvalue.Dict {
	d := make(pyvalue.Dict, len(o))
	for i, m := range o {
		d[i] = pyvalue.Item(m)
	}
	return d
}
