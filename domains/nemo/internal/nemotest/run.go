package nemotest

import (
	"context"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
)

// Run replays every script of the domains named (all of them when none is)
// as a subtest each, and returns how many scripts and calls matched out of
// how many (a call matches when every check passes, its result's text as
// a model reads it included).
func Run(t *testing.T, domains ...string) (scripts, scriptsOK, calls, callsOK int) {
	scripts, scriptsOK, calls, callsOK, _, _ = RunTexts(t, domains...)
	return scripts, scriptsOK, calls, callsOK
}

// RunTexts is Run, also returning how many results it compared as a model
// reads them and how many read byte for byte as the vectors'.
func RunTexts(t *testing.T, domains ...string) (scripts, scriptsOK, calls, callsOK, texts, textsOK int) {
	t.Helper()
	all, err := Scripts(conformance.Path(t, "nemo", "other_domain_calls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		if len(domains) > 0 && !contains(domains, s.Domain) {
			continue
		}
		scripts++
		t.Run(s.Scenario+"/"+s.Name, func(t *testing.T) {
			res, err := Replay(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			calls += res.Calls
			callsOK += res.CallsOK
			texts += res.Texts
			textsOK += res.TextsOK
			for _, d := range res.Diffs {
				t.Error(d)
			}
			if len(res.Diffs) == 0 {
				scriptsOK++
			}
		})
	}
	if scripts == 0 {
		t.Fatalf("no scripts for %v", domains)
	}
	t.Logf("%d/%d scripts, %d/%d calls match; %d/%d results read byte for byte as the vectors'", scriptsOK, scripts, callsOK, calls, textsOK, texts)
	return
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
