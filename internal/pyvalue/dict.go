package pyvalue

import (
	"encoding/json"
	"slices"
)

// Dict is a Python dict with string keys, in insertion order: what
// json.loads builds from an object, where a Go map would lose the order
// that repr, str and json.dumps show. Its items are kept as given; like
// the dict built by inserting them in turn, a key given more than once
// counts once, at its first position, with its last value. Its shape is
// that of rtvi's unexported orderedObject (Key, Value pairs).
type Dict []Item

// Item is one key and its value in a [Dict].
type Item struct {
	Key   string
	Value any
}

// Get returns the value of key (its last value), and whether it is there.
func (d Dict) Get(key string) (any, bool) {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i].Key == key {
			return d[i].Value, true
		}
	}
	return nil, false
}

// Len returns Python's len(d): the number of distinct keys.
func (d Dict) Len() int { return len(d.Items()) }

// Items returns the items as the Python dict holds them: each key once, at
// its first position, with its last value. It returns d itself when no key
// repeats.
func (d Dict) Items() Dict {
	if !d.hasDuplicates() {
		return d
	}
	out := make(Dict, 0, len(d))
	at := make(map[string]int, len(d))
	for _, it := range d {
		if i, ok := at[it.Key]; ok {
			out[i].Value = it.Value
			continue
		}
		at[it.Key] = len(out)
		out = append(out, it)
	}
	return out
}

func (d Dict) hasDuplicates() bool {
	if len(d) <= 8 {
		for i := range d {
			for j := i + 1; j < len(d); j++ {
				if d[i].Key == d[j].Key {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(d))
	for _, it := range d {
		if _, ok := seen[it.Key]; ok {
			return true
		}
		seen[it.Key] = struct{}{}
	}
	return false
}

// dictItems returns the items of a dict value, a Dict in its order or a
// map[string]any in sorted key order (the only order a Go map can give),
// and whether v is a dict.
func dictItems(v any) (Dict, bool) {
	switch x := v.(type) {
	case Dict:
		return x.Items(), true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := make(Dict, len(keys))
		for i, k := range keys {
			d[i] = Item{k, x[k]}
		}
		return d, true
	}
	return nil, false
}

// dictLookup returns the value of key in a dict value.
func dictLookup(v any, key string) (any, bool) {
	switch x := v.(type) {
	case Dict:
		return x.Get(key)
	case map[string]any:
		e, ok := x[key]
		return e, ok
	}
	return nil, false
}

// dictLen returns the number of keys of a dict value.
func dictLen(v any) int {
	switch x := v.(type) {
	case Dict:
		return x.Len()
	case map[string]any:
		return len(x)
	}
	return 0
}

// MarshalJSON writes the dict as encoding/json writes an object, with its
// items in order (each key once, as Items gives them), so that a Dict a
// tool returns marshals as the Python original's json.dumps orders it.
func (d Dict) MarshalJSON() ([]byte, error) {
	items := d.Items()
	out := append(make([]byte, 0, 16*len(items)+2), '{')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		k, err := json.Marshal(it.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(it.Value)
		if err != nil {
			return nil, err
		}
		out = append(append(append(out, k...), ':'), v...)
	}
	return append(out, '}'), nil
}
