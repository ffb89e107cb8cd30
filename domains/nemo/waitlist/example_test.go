package waitlist_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/domains/nemo/waitlist"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func Example() {
	st := state.New()
	join, _ := waitlist.NewJoinWaitList(st, waitlist.JoinOptions{InitialWaitlist: `[{"name": "Alice", "phone": "1", "party_size": 2}]`}, nil)
	_ = tool.Call(context.Background(), join, map[string]any{"name": "Bo", "phone": "2", "party_size": json.Number("3"), "note": "x"}, func(r any) error {
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
		return nil
	}, nil)
	// Output: {"error":"JoinWaitListTool._execute() got an unexpected keyword argument 'note'"}
}
