package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/tool/schema"
)

// GeminiArguments never panics; what it returns is one JSON object, the
// input itself when it decoded nothing, and decoding its output again
// changes nothing more than decoding it once did (JSON text inside JSON
// text is decoded one level, where the schema asks).
func FuzzGeminiArguments(f *testing.F) {
	rt := rawTool{props: map[string]any{
		"settings": map[string]any{"type": "object"},
		"list":     map[string]any{"type": "list"},
		"box": map[string]any{"type": "object", "properties": map[string]any{
			"inner": map[string]any{"type": "dict"},
		}},
		"rows": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"meta": map[string]any{"type": "object"},
		}}},
		"alt": map[string]any{"anyOf": []any{map[string]any{"type": "object"}, map[string]any{"type": "string"}}},
	}}
	for _, seed := range []string{`{}`, `{"settings":"{\"a\":1}"}`, `{"list":"[1,{\"b\":2}]"}`,
		`{"box":{"inner":"{}"},"rows":[{"meta":"{\"x\":null}"},"s",7]}`, `{"alt":"{\"k\":\"v\"}"}`,
		`{"settings":"{\"a\":\"{\\\"b\\\":1}\"}"}`, `[1]`, `{"a":`, `{"settings":"1e999"}`, `{"settings":"{}  x"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := schema.GeminiArguments(rt, in)
		if err != nil {
			return
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("output %q is not a JSON object: %v", out, err)
		}
		if _, err := schema.GeminiArguments(rt, out); err != nil {
			t.Fatalf("output %q refused: %v", out, err)
		}
	})
}
