package nemotest

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// TestAllScripts replays every script of other_domain_calls.jsonl.
func TestAllScripts(t *testing.T) {
	scripts, ok, calls, callsOK := Run(t)
	conformance.RequireRecords(t, scripts, "nemo", "other_domain_calls.jsonl")
	if ok != scripts || callsOK != calls {
		t.Errorf("%d/%d scripts, %d/%d calls", ok, scripts, callsOK, calls)
	}
}

// TestResultTexts requires every delivered result of every script to read,
// as a model reads it (json.dumps(result, ensure_ascii=False) in the tool
// message, agent.ResultContent), byte for byte as the vector's: the same
// keys in the same order, not merely the same values.
func TestResultTexts(t *testing.T) {
	scripts, _, calls, _, texts, textsOK := RunTexts(t)
	conformance.RequireRecords(t, scripts, "nemo", "other_domain_calls.jsonl")
	if texts != calls || textsOK != texts || texts == 0 {
		t.Errorf("%d/%d results (of %d calls) read byte for byte as the vectors'", textsOK, texts, calls)
	}
}

// TestResultTextsSeeKeyOrder shows that the text comparison is one of key
// order: with the first two keys of one vector result swapped in memory
// (the same values, another order), exactly that call's text differs.
func TestResultTextsSeeKeyOrder(t *testing.T) {
	all, err := Scripts(conformance.Path(t, "nemo", "other_domain_calls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		callsV, _ := s.Line.Get("calls")
		for _, cv := range callsV.([]any) {
			c := cv.(pyvalue.Dict)
			r, _ := c.Get("result")
			d, ok := r.(pyvalue.Dict)
			if !ok || len(d) < 2 {
				continue
			}
			res, err := Replay(context.Background(), s)
			if err != nil || res.TextsOK != res.Texts || res.Texts == 0 {
				t.Fatalf("the vectors as they are: %d/%d texts (%v)", res.TextsOK, res.Texts, err)
			}
			d[0], d[1] = d[1], d[0] // the script's own line, in memory
			defer func() { d[0], d[1] = d[1], d[0] }()
			res, err = Replay(context.Background(), s)
			if err != nil || res.TextsOK != res.Texts-1 {
				t.Fatalf("one result with two keys swapped: %d/%d texts read the same (%v)", res.TextsOK, res.Texts, err)
			}
			return
		}
	}
	t.Fatal("no vector result is an object of two keys")
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
