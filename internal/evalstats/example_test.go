package evalstats_test

import (
	"fmt"

	"github.com/voiceeval/schematools/internal/evalstats"
)

// Three scenarios run three times each: one always passes, one passes
// twice, one once.
func ExamplePassHatK() {
	outcomes := []evalstats.Outcome{{3, 3}, {2, 3}, {1, 3}}
	for k := 1; k <= 3; k++ {
		v, _ := evalstats.PassHatK(outcomes, k)
		fmt.Printf("pass^%d = %.4f\n", k, v)
	}
	lo, hi := evalstats.Wilson(6, 9, 0.95)
	fmt.Printf("pass@1 95%% Wilson interval: [%.4f, %.4f]\n", lo, hi)
	fmt.Printf("flaky: %.4f\n", evalstats.FlakyShare(outcomes))
	// Output:
	// pass^1 = 0.6667
	// pass^2 = 0.4444
	// pass^3 = 0.3333
	// pass@1 95% Wilson interval: [0.3542, 0.8794]
	// flaky: 0.6667
}
