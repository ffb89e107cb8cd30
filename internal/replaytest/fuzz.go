package replaytest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// FuzzTools is the body of a port's fuzz test: it sends arbitrary
// arguments to every tool of the domain, on a fresh copy of db for each
// call. Every seed is tried on every tool. Nothing may panic (Execute is
// called directly, not through a path that recovers), every result must
// encode as JSON, and a call answered with a validation or domain error,
// or a Go error, must leave the DB and the action log as they were.
func FuzzTools(f *testing.F, domain string, tools replay.ToolBuilder, db map[string]any, seeds []string) {
	probe, err := tools(replay.Env{Domain: domain, Agent: state.New()})
	if err != nil {
		f.Fatal(err)
	}
	keys := make([]string, 0, len(probe))
	for k := range probe {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := range keys {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		args, err := tool.DecodeArgs(raw)
		if err != nil {
			return
		}
		key := keys[int(which)%len(keys)]
		st := state.New()
		st.SetDB(state.Clone(db).(map[string]any))
		m, err := tools(replay.Env{Domain: domain, Agent: st})
		if err != nil {
			t.Fatal(err)
		}
		before, err := dbhash.Hash(st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		out, callErr := m[key].Execute(context.Background(), args)
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("%s(%s): result does not encode: %v", key, raw, err)
		}
		refused := callErr != nil
		switch out.(type) {
		case tool.ValidationResult, tool.FailureResult:
			refused = true
		}
		if !refused {
			return
		}
		after, err := dbhash.Hash(st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		if after != before || len(st.Actions()) != 0 {
			t.Fatalf("%s(%s): a refused call changed the state (%v, %v)", key, raw, out, callErr)
		}
	})
}
