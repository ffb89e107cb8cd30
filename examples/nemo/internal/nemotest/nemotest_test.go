package nemotest

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
)

// TestAllScripts replays every script of other_domain_calls.jsonl.
func TestAllScripts(t *testing.T) {
	scripts, ok, calls, callsOK := Run(t)
	conformance.RequireRecords(t, scripts, "nemo", "other_domain_calls.jsonl")
	if ok != scripts || callsOK != calls {
		t.Errorf("%d/%d scripts, %d/%d calls", ok, scripts, callsOK, calls)
	}
}

// BenchmarkReplayAll replays every script, every call on the live path.
func BenchmarkReplayAll(b *testing.B) {
	all, err := Scripts(conformance.Path(b, "nemo", "other_domain_calls.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	calls := 0
	for _, s := range all {
		calls += s.Calls()
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range all {
			res, err := Replay(ctx, s)
			if err != nil || len(res.Diffs) > 0 {
				b.Fatalf("%s/%s: %v %v", s.Scenario, s.Name, err, res.Diffs)
			}
		}
	}
	b.ReportMetric(float64(calls), "calls/op")
}
