package nemotest

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
)

// TestAllScripts replays all 70 scripts of other_domain_calls.jsonl.
func TestAllScripts(t *testing.T) {
	scripts, ok, calls, callsOK := Run(t)
	if scripts != 70 || ok != scripts || callsOK != calls {
		t.Errorf("%d/%d scripts, %d/%d calls", ok, scripts, callsOK, calls)
	}
}

// BenchmarkReplayAll replays all 70 scripts, every call on the live path.
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
