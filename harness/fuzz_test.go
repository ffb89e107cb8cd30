package harness

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// FuzzExtractVerdict: any judge reply is either a verdict that is JSON or
// an error, never a panic.
func FuzzExtractVerdict(f *testing.F) {
	for _, s := range []string{`{"score": 1}`, "```json\n{\"score\": 0.5}\n```", `text {"score": 0.9, "reason": "x"} more`, "", "```{", `{"score": 1e999}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseVerdict(s)
		if err == nil && !json.Valid(v) && v == nil {
			t.Fatalf("no verdict and no error for %q", s)
		}
	})
}

// FuzzJudgeReply scores a judged scenario with any reply the judge's
// parser accepts: Score never panics nor fails on it.
func FuzzJudgeReply(f *testing.F) {
	for _, s := range []string{`{"score": 0.95, "nl_assertion_verdicts": [{"index": 1, "passed": true}]}`, `{"score": "x"}`, `[]`, `{"score": 1, "nl_assertion_verdicts": [{"index": 1e3}, 7, {"index": "1", "passed": 1}]}`} {
		f.Add(s)
	}
	sc := Scenario{Name: "tau2_retail__1", SuccessSignals: []string{signalNLAssertion, signalJudgePassed, signalCleanExit}, NLAssertions: []string{"a", "b"}}
	f.Fuzz(func(t *testing.T, reply string) {
		o := defaultOptions()
		o.Judge = JudgeFunc(func(context.Context, JudgeRequest) (json.RawMessage, error) { return parseVerdict(reply) })
		r := &Run{Scenario: sc, Agent: Side{Context: []byte(`[{"role": "user", "content": "Hello"}]`), Tokens: Usage{NCalls: 5}}, StopReason: stopReasonExit}
		res, err := Score(context.Background(), r, o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := res.Metrics.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseResults: results.jsonl text of any shape reads as whole lines,
// a torn tail, or an error; a line read back marshals to a line that
// reads the same.
func FuzzParseResults(f *testing.F) {
	f.Add([]byte(`{"scenario":"a__1","domain":"a","metrics":{"total_turns":1}}` + "\n"))
	f.Add([]byte(`{"scenario":"a__1","domain":"a","metrics":{},"nl_assertion_verdicts":[true]}` + "\n{\"scen"))
	f.Add([]byte("\n\n[1]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rf, err := parseResults(b)
		if err != nil {
			return
		}
		for _, l := range rf.Lines {
			text, err := l.MarshalJSON()
			if err != nil {
				continue // a value json.dumps refuses (e.g. a lone surrogate key) stays unwritable
			}
			back, err := parseResultLine(text)
			if err != nil {
				t.Fatalf("%s does not read back: %v", text, err)
			}
			again, _ := back.MarshalJSON()
			if string(again) != string(text) {
				t.Fatalf("round trip changed %s to %s", text, again)
			}
		}
		allSummary(rf.Lines, len(rf.Lines), 3)
		allLatenciesCSV(rf.Lines)
		if _, err := renderReport(reportInput{Lines: rf.Lines}); err != nil {
			t.Fatal(err)
		}
	})
}

// indentedLen counts what dumpIndent writes, byte for byte, and both stop
// at the same bound.
func FuzzIndentedLen(f *testing.F) {
	for _, s := range []string{`[]`, `{"a": [1, {"b": []}, "\u00e9"], "c": null}`, `[[[[1.5e300, -0.0]]]]`, `"x"`, `{"k": {"k": {"k": true}}}`} {
		f.Add([]byte(s), int64(1<<20))
	}
	f.Add([]byte(`[[[1, 2, 3]]]`), int64(10))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		v, err := pyvalue.Loads(data)
		if err != nil {
			return
		}
		out, werr := dumpIndentWithin(v, 2, limit)
		n, cerr := indentedLen(v, 2, limit)
		if (werr == nil) != (cerr == nil) {
			t.Fatalf("write error %v, count error %v", werr, cerr)
		}
		if werr == nil && int64(len(out)) != n {
			t.Fatalf("wrote %d bytes, counted %d", len(out), n)
		}
	})
}
