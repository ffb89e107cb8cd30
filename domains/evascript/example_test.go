package evascript_test

import (
	"fmt"

	"github.com/voiceeval/schematools/domains/evascript"
)

// The stand-in's script for scenario 1.1.3: one response per gold call, the
// goodbye with the call that ends the conversation, then the goodbye alone.
func Example() {
	turns, err := evascript.Script("eva_airline__1_1_3")
	if err != nil {
		panic(err)
	}
	for i, t := range turns {
		var names []string
		for _, c := range t.Calls {
			names = append(names, c.Name)
		}
		fmt.Printf("%d %v %q\n", i, names, t.Text)
	}
	// Output:
	// 0 [RebookFlightTool] ""
	// 1 [AssignSeatTool] ""
	// 2 [EndConversationTool] "Everything is done. Thank you for calling, goodbye."
	// 3 [] "Everything is done. Thank you for calling, goodbye."
}
