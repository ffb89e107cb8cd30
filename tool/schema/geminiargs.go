package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/voiceeval/schematools/tool"
)

// GeminiArguments rewrites the arguments of a Gemini model's call of t
// (JSON text, as in [tool.ModelCall]) for dispatch: where [Gemini] wrote
// a parameter as a STRING holding JSON text (an open map, a list without
// an item schema), at any level, a string that is JSON text of the right
// kind (an object, an array) is replaced by the value it holds. Anything
// else — a value already of the right kind, a string that is not such
// JSON, an argument the schema does not describe — is left for the tool to
// judge. When nothing is decoded the text is returned as it is; otherwise
// the object is written again (its keys sorted). Text that is not a JSON
// object is an error.
func GeminiArguments(t tool.Tool, arguments string) (string, error) {
	args, err := decodeJSON([]byte(arguments))
	if err != nil {
		return "", fmt.Errorf("schema: tool %s: arguments: %w", t.Name(), err)
	}
	obj, ok := args.(map[string]any)
	if !ok {
		return "", fmt.Errorf("schema: tool %s: arguments are not a JSON object", t.Name())
	}
	p, _, err := parameters(t)
	if err != nil {
		return "", err
	}
	if !decodeJSONText(obj, p) {
		return arguments, nil
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return "", fmt.Errorf("schema: tool %s: %w", t.Name(), err)
	}
	return string(data), nil
}

// decodeJSONText replaces, in the object value v described by the object
// schema s, the JSON-text strings of opaque properties by their values,
// and says whether it replaced any.
func decodeJSONText(v map[string]any, s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	changed := false
	for name, arg := range v {
		sub, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		if nv, ok := decodeValue(arg, sub); ok {
			v[name] = nv
			changed = true
		}
	}
	return changed
}

// decodeValue returns arg with its JSON text decoded where schema s asks
// for it, and whether anything changed.
func decodeValue(arg any, s map[string]any) (any, bool) {
	if text, isStr := arg.(string); isStr {
		kinds := map[string]bool{}
		if kind, ok := opaque(s); ok {
			kinds[kind] = true
		}
		alts, _ := s["anyOf"].([]any)
		for _, alt := range alts {
			if m, ok := alt.(map[string]any); ok {
				if kind, ok := opaque(m); ok {
					kinds[kind] = true
				}
			}
		}
		if len(kinds) == 0 {
			return nil, false
		}
		val, err := decodeJSON([]byte(text))
		if err != nil {
			return nil, false
		}
		switch val.(type) {
		case map[string]any:
			return val, kinds["object"]
		case []any:
			return val, kinds["array"]
		}
		return nil, false
	}
	switch a := arg.(type) {
	case map[string]any:
		return a, decodeJSONText(a, s)
	case []any:
		items, ok := s["items"].(map[string]any)
		if !ok {
			return nil, false
		}
		changed := false
		for i, x := range a {
			if nv, ok := decodeValue(x, items); ok {
				a[i] = nv
				changed = true
			}
		}
		return a, changed
	}
	return nil, false
}

// decodeJSON reads one JSON value, numbers kept as written.
func decodeJSON(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}
