package tool

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// uniqueItems compares a list's items by JSON value, as JSON Schema does;
// pydantic has no such rule, so the issue type "unique_items" and its
// message ("List should have unique items; item 3 repeats item 1") are
// this package's. The values compared are the bound items, in their JSON
// form:
//
//   - numbers by value, as Python compares what json.loads returns:
//     integers exactly, fractions as doubles, an integer and a whole
//     double alike (1 and 1.0, 1e20 and 100000000000000000000); NaN is
//     one value;
//   - strings exactly, booleans and null by themselves (true is not 1);
//   - lists item by item, objects key by key whatever their key order.

// firstRepeat returns the first item j of list v equal to an earlier item
// i.
func firstRepeat(v reflect.Value) (i, j int, ok bool) {
	seen := make(map[string]int, v.Len())
	var b strings.Builder
	for j := range v.Len() {
		b.Reset()
		appendKey(&b, jsonTree(v.Index(j)))
		if i, dup := seen[b.String()]; dup {
			return i, j, true
		}
		seen[b.String()] = j
	}
	return 0, 0, false
}

// jsonTree is the JSON value of a bound item: a decoded JSON value as it
// is, anything else through its JSON encoding.
func jsonTree(v reflect.Value) any {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case nil, bool, string, json.Number, float64, []any, map[string]any:
		return x
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(v.Float(), 'g', -1, 32), 64)
		return f
	case reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	data, err := json.Marshal(v.Interface())
	if err != nil {
		return "\x00unencodable " + v.Type().String() + ": " + err.Error()
	}
	tree, err := pyjson.Decode(data)
	if err != nil {
		return "\x00undecodable " + string(data)
	}
	return tree
}

// appendKey writes a text to b that is the same for two JSON values exactly
// when they are equal (see uniqueItems).
func appendKey(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		if x {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case string:
		b.WriteString(strconv.Quote(x))
	case json.Number:
		if isInt, ok := pyjson.Classify(string(x)); ok && isInt {
			n, ok := new(big.Int).SetString(string(x), 10)
			if ok {
				b.WriteString("#" + n.String())
				return
			}
		}
		f, err := pyjson.ParseFloat(string(x)) // out of range: ±Inf, as Python's float()
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			b.WriteString("?" + strconv.Quote(string(x))) // not a number: its text
			return
		}
		appendFloatKey(b, f)
	case float64:
		appendFloatKey(b, x)
	case []any:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",")
			}
			appendKey(b, e)
		}
		b.WriteString("]")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Quote(k) + ":")
			appendKey(b, x[k])
		}
		b.WriteString("}")
	default:
		appendKey(b, jsonTree(reflect.ValueOf(x)))
	}
}

// appendFloatKey writes the key of a double: a whole one as the integer it
// is, so that it equals that integer's key.
func appendFloatKey(b *strings.Builder, f float64) {
	switch {
	case math.IsNaN(f):
		b.WriteString("#nan")
	case math.IsInf(f, 0):
		b.WriteString("#" + strconv.FormatFloat(f, 'g', -1, 64))
	case f == math.Trunc(f):
		n, _ := big.NewFloat(f).Int(nil)
		b.WriteString("#" + n.String())
	default:
		b.WriteString("#" + strconv.FormatFloat(f, 'g', -1, 64))
	}
}
