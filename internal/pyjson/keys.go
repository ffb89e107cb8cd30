package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
)

// ObjectKeys lists the distinct keys of the JSON object text in the order
// each first appears, the order of the dict json.loads builds (a repeated
// key keeps its first place). It fails when text is not one JSON object.
// Keys are read by encoding/json, so text Python accepts and strict JSON
// does not (NaN, lone surrogates) may fail here while Decode reads it.
func ObjectKeys(text []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("pyjson: not a JSON object")
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
