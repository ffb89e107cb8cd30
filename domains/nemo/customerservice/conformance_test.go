package customerservice_test

import (
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemotest"
)

// TestConformance replays this domain's scripts of other_domain_calls.jsonl.
func TestConformance(t *testing.T) {
	scripts, ok, calls, callsOK := nemotest.Run(t, "customer_service")
	if ok != scripts || callsOK != calls {
		t.Errorf("%d/%d scripts, %d/%d calls", ok, scripts, callsOK, calls)
	}
}
