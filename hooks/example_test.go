package hooks_test

import (
	"fmt"
	"time"

	"github.com/voiceeval/schematools/hooks"
)

// A domain declares its initialisation functions and a sync applier once;
// bots and gold replay run the same Set.
func ExampleSet() {
	set := hooks.Set{
		Init: map[string]hooks.Init{
			"set_data_usage": {
				Func: func(db, args map[string]any, _ func() time.Time) error {
					db["usage"] = args["gb"]
					return nil
				},
				Tables: []string{"usage"},
			},
		},
	}
	db := map[string]any{"device": map[string]any{"airplane_mode": false}}
	res := set.ApplyInit("telecom", []hooks.InitAction{
		{EnvType: "user", FuncName: "set_data_usage", Arguments: map[string]any{"gb": 2}},
	}, db, nil)
	fmt.Println(res.Success, db["usage"])

	// Without an applier a delta is applied by dotted paths.
	err := set.ApplyDelta(db, map[string]any{"device.airplane_mode": true})
	fmt.Println(err, db["device"])
	// Output:
	// true 2
	// <nil> map[airplane_mode:true]
}
