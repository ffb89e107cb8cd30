package rtvi

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// orderedObject is a JSON object that keeps its members in order: what
// toTree makes of a struct or of JSON text (a bot's message structs), so
// that a message marshals, sanitises and prints in its own order (role
// before content), which a Go map would lose.
//
// An orderedObject behaves like the Python dict built by inserting its
// members in order: when a key occurs more than once, Get and pythonRepr
// see the last value at the position of the first occurrence. MarshalJSON
// writes every member as it is, duplicates included.
type orderedObject []objMember

// objMember is one key and its value in an orderedObject.
type objMember struct {
	Key   string
	Value any
}

// fromDict returns the kernel's ordered dict, which a bot of this module
// may put in its conversation, as an orderedObject (the same members).
func fromDict(d pyvalue.Dict) orderedObject {
	o := make(orderedObject, len(d))
	for i, it := range d {
		o[i] = objMember(it)
	}
	return o
}

// Get returns the value of the last member named key, and whether there
// is one.
func (o orderedObject) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order as a JSON object, each value as
// encoding/json writes it (nil slices and maps inside are null). A nil
// orderedObject is the empty object {}, not null.
func (o orderedObject) MarshalJSON() ([]byte, error) {
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
	case orderedObject:
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
func (o orderedObject) dict() pyvalue.Dict {
	d := make(pyvalue.Dict, len(o))
	for i, m := range o {
		d[i] = pyvalue.Item(m)
	}
	return d
}
