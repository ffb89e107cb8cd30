package tau2tools_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"github.com/voiceeval/schematools/internal/pyvalue"
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

func ExampleDBNumber() {
	balance, _ := pyvalue.NumOf(163.0) // a gift card balance, a float in the DB
	after, _ := balance.Sub(pyvalue.IntNum(50))
	fmt.Println(after, tau2tools.DBNumber(after))
	// Output: 113.0 113.0
}

func ExampleOriginal() {
	s, err := tau2tools.Original("tau2_airline", "GetFlightStatusTool")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Description)
	fmt.Println(s.Order, s.Required)
	fmt.Println(s.Properties["date"])
	// Output:
	// Get the status of a flight on a given date.
	// [flight_number date] [flight_number date]
	// map[description:The date of the flight. type:string]
}
