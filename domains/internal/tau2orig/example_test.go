package tau2orig_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/internal/tau2orig"
)

func ExampleOriginal() {
	s, err := tau2orig.Original("tau2_airline", "GetFlightStatusTool")
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
