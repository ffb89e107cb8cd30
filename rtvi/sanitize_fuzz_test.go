package rtvi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sanFuzzCopy returns a deep copy of a tree from decodeOrderedJSON.
func sanFuzzCopy(v any) any {
	switch x := v.(type) {
	case orderedObject:
		out := make(orderedObject, len(x))
		for i, m := range x {
			out[i] = objMember{Key: m.Key, Value: sanFuzzCopy(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanFuzzCopy(e)
		}
		return out
	}
	return v
}

func FuzzSanitizeContext(f *testing.F) {
	for _, seed := range []string{
		`[{"role":"user","content":"hi"}]`,
		`[{"role":"user","content":[{"type":"text","text":"hello"},{"type":"input_audio","input_audio":{"data":"QUJD","format":"wav"}}]}]`,
		`{"image_url":{"url":"data:image/png;base64,AAAA","detail":"auto"}}`,
		`{"type":"file","file":{"filename":"r.pdf","file_id":"file_9","file_data":"Q0ND"}}`,
		`{"role":"assistant","audio":{"id":"audio_123","data":"RERE","transcript":"hello"}}`,
		`{"role":"tool","data":{"rows":[1,2,3]}}`,
		`{"tool":{"data":"data:xyz"},"image":{"b64_json":"AAA"},"Profile":{"DATA":[1]}}`,
		`{"a":1,"a":{"audio":{"data":null}},"x":[1.5e300,-0,"\ud800","\u00e9"]}`,
		`[[[[{"audio":[[{"meta":{"data":{}}}]]}]]]]`,
		`"data:"`,
		`null`,
	} {
		f.Add([]byte(seed))
	}
	// Nesting exactly at the limit, every container kind on the way.
	deep := strings.Repeat(`{"audio":[`, treeMaxDepth/2) + `"data:x"` + strings.Repeat(`]}`, treeMaxDepth/2)
	f.Add([]byte(deep))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := decodeOrderedJSON(data)
		if err != nil {
			t.Skip()
		}
		before := sanFuzzCopy(in)

		var out any
		require.NotPanics(t, func() { out = sanitizeContext(in) })
		require.Equal(t, before, in, "input mutated")

		_, err = json.Marshal(out)
		require.NoError(t, err, "output does not marshal")

		require.Equal(t, out, sanitizeContext(out), "not idempotent")

		require.NotPanics(t, func() {
			_, err = pythonRepr(out)
		})
		require.NoError(t, err, "no Python repr for the output")
	})
}
