package tau2tools_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
)

func ExampleCalculate() {
	for _, expr := range []string{"2 * ((350 - 122) + (499 - 127))", "10/3", "1/0", "1e5"} {
		out, err := tau2tools.Calculate(expr)
		fmt.Printf("%-32s %q %v\n", expr, out, err)
	}
	// Output:
	// 2 * ((350 - 122) + (499 - 127))  "1200.0" <nil>
	// 10/3                             "3.33" <nil>
	// 1/0                              "" Invalid expression: division by zero
	// 1e5                              "" Invalid characters in expression
}
