package tau2script_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/tau2script"
)

// The stand-in's script for airline task 1, its two reads sharing one
// response: the tool calls of each response, by the names the model sees.
func Example() {
	d, err := tau2script.Load("tau2_airline")
	if err != nil {
		panic(err)
	}
	task, err := d.Task("1")
	if err != nil {
		panic(err)
	}
	turns, err := d.Script(task, tau2script.Options{BatchReads: true})
	if err != nil {
		panic(err)
	}
	for i, t := range turns {
		var names []string
		for _, c := range t.Calls {
			names = append(names, c.Name)
		}
		fmt.Println(i, names)
	}
	// Output:
	// 0 [GetUserDetailsTool GetReservationDetailsTool]
	// 1 [EndConversationTool]
	// 2 []
}
