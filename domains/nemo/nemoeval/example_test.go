package nemoeval_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/nemo/nemoeval"
)

// The harness form of a shipped scenario: what a run sets up and scoring
// reads. A retail scenario's expected DB hash does not depend on the day it
// is built on.
func Example() {
	s, err := nemoeval.Get("tau2_retail__12")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Name, s.Domain, s.SuccessSignals, s.ExpectedDBHash != "")
	fmt.Println(nemoeval.IsDated(s.Name))
	// Output:
	// tau2_retail__12 tau2_retail [db_state_match clean_exit] true
	// false
}
