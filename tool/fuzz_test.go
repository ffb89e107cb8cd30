package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// FuzzCall sends arbitrary bytes as the arguments of a typed write tool.
// Whatever arrives, exactly one JSON-encodable result is delivered, nothing
// panics, and a rejected call leaves the DB and the action log untouched.
func FuzzCall(f *testing.F) {
	for _, seed := range []string{
		``, `null`, `{}`, `[]`, `"x"`, `1`, `{"customer":"Ada","items":[{"name":"latte","quantity":2}]}`,
		`{"customer":"Ada","items":[{"name":"latte","quantity":2.5}],"tip":1e400}`,
		`{"customer":null,"items":null,"size":"huge","count":-1,"exact":"1"}`,
		`{"customer":"a","items":[{}],"extra":{"a":[[[[]]]]},"anything":{"deep":[1,{"x":null}]}}`,
		`{"customer":"a","items":[{"name":"x","quantity":99999999999999999999999}]}`,
		`{"customer":"\ud800","items":[]} trailing`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		st := state.New()
		st.SetDB(map[string]any{"orders": map[string]any{}})
		tl := mustOrderTool(t, st)
		var got []any
		err := tool.CallJSON(context.Background(), tl, raw, func(v any) error {
			got = append(got, v)
			return nil
		}, &tool.CallOptions{Logger: quiet})
		if err != nil {
			t.Fatalf("CallJSON(%q) returned %v", raw, err)
		}
		if len(got) != 1 {
			t.Fatalf("CallJSON(%q) delivered %d results", raw, len(got))
		}
		if _, err := json.Marshal(got[0]); err != nil {
			t.Fatalf("result of %q does not encode: %v", raw, err)
		}
		if vr, ok := got[0].(tool.ValidationResult); ok {
			if len(vr.Details) == 0 {
				t.Fatalf("validation result for %q has no details", raw)
			}
			if len(st.Actions()) != 0 || len(st.Snapshot()["orders"].(map[string]any)) != 0 {
				t.Fatalf("rejected call %q changed the state", raw)
			}
		}
	})
}
