package nemoeval

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

// builtOn is the day NeMo built the shipped scenario records (its
// get_eval_scenario ran then): their dated hashes are that day's.
var builtOn = time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)

// Replayed on the day the records were built, every dated scenario's
// expected hashes are the shipped ones, NeMo's own; on another day some
// change, and metadata.json's text carries the new ones.
func TestDatedReproducesNeMosHashes(t *testing.T) {
	names, err := scenarios.Names()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n, changed := 0, 0
	for _, name := range names {
		s, err := scenarios.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Dated(ctx, s, builtOn)
		if err != nil {
			t.Fatal(err)
		}
		if !IsDated(name) {
			if got != s {
				t.Errorf("%s: not dated, but copied", name)
			}
			continue
		}
		if s.Metadata.ExpectedDBHash == "" {
			continue
		}
		n++
		if got.Metadata.ExpectedDBHash != s.Metadata.ExpectedDBHash || got.Metadata.ExpectedUserDBHash != s.Metadata.ExpectedUserDBHash {
			t.Errorf("%s: on %s the replay gives %s / %s, NeMo's are %s / %s", name, builtOn.Format(time.DateOnly),
				got.Metadata.ExpectedDBHash, got.Metadata.ExpectedUserDBHash, s.Metadata.ExpectedDBHash, s.Metadata.ExpectedUserDBHash)
		}
		later, err := Dated(ctx, s, builtOn.AddDate(0, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		if later.Metadata.ExpectedDBHash != s.Metadata.ExpectedDBHash {
			changed++
			meta := later.Config["metadata.json"]
			if !strings.Contains(meta, `"expected_db_hash": "`+later.Metadata.ExpectedDBHash+`"`) || strings.Contains(meta, s.Metadata.ExpectedDBHash) {
				t.Errorf("%s: metadata.json keeps the old hash", name)
			}
			if s.Config["metadata.json"] == meta {
				t.Errorf("%s: the shipped record was changed", name)
			}
		}
	}
	if n == 0 || changed == 0 {
		t.Fatalf("%d dated scenarios, %d change a day later", n, changed)
	}
	t.Logf("%d dated scenarios reproduce NeMo's hashes; %d change a day later", n, changed)
}
