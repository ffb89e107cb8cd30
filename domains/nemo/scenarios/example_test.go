package scenarios_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/nemo/scenarios"
)

// Load a shipped scenario by name and read how NeMo's runner sets it up.
func Example() {
	s, err := scenarios.Get("tau2_retail__12")
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Domain, s.MaxDuration, s.SuccessSignals)
	// Output: tau2_retail 900 [db_state_match clean_exit]
}
