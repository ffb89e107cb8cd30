package rtvi_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/voiceeval/schematools/hooks"
	"testing"
	"time"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/rtvi"
)

// FuzzHandle feeds arbitrary messages to a dispatcher whose state holds a
// scenario: it never panics, every reply is one RTVI JSON message, an error
// is always ErrMalformed, and the state stays hashable.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"label":"rtvi-ai","type":"client-message","id":"a","data":{"t":"reset","d":{}}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"b","data":{"t":"update_system_prompt","d":{"prompt":"p","tools":"{\"set_flag\": {}}","tool_domain":"flags"}}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"c","data":{"t":"apply_initialization","d":{"domain":"synthetic","shared_state_init":"{\"db\": {\"flags\": {}}}","actions":[{"func_name":"set_count","arguments":{"value":1}}]}}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"d","data":{"t":"apply_sync_delta","d":{"delta":{"flags.a":true,"x.y.z":1}}}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"e","data":{"t":"get_scenario_summary","d":{"include_db":"yes"}}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"f","data":{"t":"get_context_history"}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"g","data":{"t":"apply_initialization","d":{"shared_state_init":"{\"db_path\": \"../../etc/passwd\"}"}}}`,
		`{"label":"rtvi-ai","type":"client-ready","id":"h","data":{"version":"1.1.0"}}`,
		`{"label":"rtvi-ai","type":"send-text","id":"i","data":{"content":"hi"}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"j","data":{"t":"apply_sync_delta","d":[1,2]}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"k","data":{"t":"get_scenario_summary","d":NaN}}`,
		`{"label":"rtvi-ai","type":"client-message","id":"\ud800","data":{"t":"\udfff"}}`,
		`{"label":"other"}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	funcs := hooks.Set{Init: map[string]hooks.Init{}}
	funcs.Init["set_count"] = hooks.Init{Func: func(db, args map[string]any, _ func() time.Time) error {
		db["count"] = args["value"]
		return nil
	}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b := newBot(t, withHooks(t, "synthetic", funcs))
		b.st.SetDB(map[string]any{"flags": map[string]any{"a": false}, "x": map[string]any{"y": map[string]any{}}})
		ctx := context.Background()
		for range 2 { // twice: the second call sees what the first left
			reply, err := b.d.Handle(ctx, raw)
			if err != nil && !errors.Is(err, rtvi.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			if reply != nil {
				var m map[string]any
				if jerr := json.Unmarshal(reply, &m); jerr != nil {
					t.Fatalf("reply is not JSON: %v\n%s", jerr, reply)
				}
				if m["label"] != "rtvi-ai" {
					t.Fatalf("reply without the RTVI label: %s", reply)
				}
			}
			if _, herr := dbhash.Hash(b.st.Snapshot()); herr != nil && len(b.st.Snapshot()) > 0 {
				t.Fatalf("state no longer hashable: %v", herr)
			}
		}
	})
}
