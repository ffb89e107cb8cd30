package calltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// expectedJSON turns the expected value of a native exact or one_of check
// into the JSON value it stands for, so that it compares with decoded
// arguments: a value already made of nil, bool, string, json.Number,
// float64, map[string]any and []any stays as it is (its members made so
// too); any other Go value is replaced by what encoding/json writes for it,
// read back with numbers as json.Number — a []string becomes a list, a
// uint or an int8 a number, a struct an object under its json tags. A value
// encoding/json cannot write (a channel, a func, a complex number, NaN or
// an infinity, anywhere inside) is an error naming its type.
func expectedJSON(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		if _, ok := pyjson.Classify(string(x)); !ok {
			return nil, fmt.Errorf("json.Number %q is not a JSON number", string(x))
		}
		return v, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("float64 %v is not a JSON number", x)
		}
		return v, nil
	case int:
		return json.Number(strconv.Itoa(x)), nil // the common case, without a round trip
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, err := expectedJSON(e)
			if err != nil {
				return nil, fmt.Errorf("at key %s: %w", strconv.Quote(k), err)
			}
			out[k] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := expectedJSON(e)
			if err != nil {
				return nil, fmt.Errorf("at index %d: %w", i, err)
			}
			out[i] = n
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("a %T cannot be written as JSON (%v)", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("a %T does not read back from its JSON (%v)", v, err)
	}
	return out, nil
}
