package rtvi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// treeMaxDepth bounds how many containers (objects, maps, lists) may nest
// in a value that is decoded, sanitised, marshalled or printed. Deeper
// values are an error (or, for sanitizeContext, cut off), never a stack
// overflow. It equals encoding/json's own limit, so whatever toTree
// accepts json.Marshal accepts too.
const treeMaxDepth = pyjson.MaxDepth

var errTreeDepth = fmt.Errorf("rtvi: value nests deeper than %d containers", treeMaxDepth)

// isTreeValue reports whether v is one of the JSON tree types that toTree
// passes through as they are.
func isTreeValue(v any) bool {
	switch v.(type) {
	case nil, bool, string, float64, json.Number,
		int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64,
		map[string]any, []any, []map[string]any, orderedObject, pyvalue.Dict, []byte:
		return true
	}
	return false
}

// toTree returns v as a JSON tree. Tree types come back as they are (not
// copied); any other value (a struct, a pointer, json.RawMessage, a named
// map or slice type) goes through json.Marshal and is decoded back with
// its key order kept: objects become orderedObject, arrays []any, numbers
// json.Number. An error from json.Marshal, or a panic in a MarshalJSON
// method, is returned as an error.
func toTree(v any) (tree any, err error) {
	if isTreeValue(v) {
		return v, nil
	}
	defer func() {
		if r := recover(); r != nil {
			tree, err = nil, fmt.Errorf("rtvi: marshalling %T panicked: %v", v, r)
		}
	}()
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeOrderedJSON(b)
}

// orderedFrame is one open container while decodeOrderedJSON runs.
type orderedFrame struct {
	isObject bool
	obj      orderedObject
	arr      []any
	key      string // the key whose value comes next
	haveKey  bool
	index    map[string]int // key → position in obj, built for large objects
}

// decodeOrderedJSON decodes one JSON value, keeping object members in
// order: objects become orderedObject, arrays []any, numbers json.Number. A key
// that occurs twice keeps its first position and takes the last value, as
// Python's json.loads builds a dict. It works on json.Decoder tokens with
// an explicit stack, so nesting costs no Go stack; more than treeMaxDepth
// nested containers is an error. Invalid UTF-8 in strings becomes U+FFFD,
// as with encoding/json.
func decodeOrderedJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*orderedFrame
	for {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		var v any
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= treeMaxDepth {
					return nil, errTreeDepth
				}
				f := &orderedFrame{isObject: t == '{'}
				if f.isObject {
					f.obj = orderedObject{}
				} else {
					f.arr = []any{}
				}
				stack = append(stack, f)
				continue
			default: // '}' or ']': the tokenizer has checked the pairing
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if f.isObject {
					v = f.obj
				} else {
					v = f.arr
				}
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].isObject && !stack[n-1].haveKey {
				stack[n-1].key, stack[n-1].haveKey = t, true
				continue
			}
			v = t
		default:
			v = tok
		}
		if len(stack) == 0 {
			if _, err := dec.Token(); !errors.Is(err, io.EOF) {
				if err == nil {
					err = errors.New("rtvi: data after the JSON value")
				}
				return nil, err
			}
			return v, nil
		}
		stack[len(stack)-1].add(v)
	}
}

func (f *orderedFrame) add(v any) {
	if !f.isObject {
		f.arr = append(f.arr, v)
		return
	}
	f.haveKey = false
	if f.index == nil && len(f.obj) < 16 {
		// Small objects: a scan is cheaper than a map.
		for i := range f.obj {
			if f.obj[i].Key == f.key {
				f.obj[i].Value = v
				return
			}
		}
		f.obj = append(f.obj, objMember{Key: f.key, Value: v})
		return
	}
	if f.index == nil {
		f.index = make(map[string]int, 2*len(f.obj))
		for i, m := range f.obj {
			f.index[m.Key] = i
		}
	}
	if i, ok := f.index[f.key]; ok {
		f.obj[i].Value = v
		return
	}
	f.index[f.key] = len(f.obj)
	f.obj = append(f.obj, objMember{Key: f.key, Value: v})
}
