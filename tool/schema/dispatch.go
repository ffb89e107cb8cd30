package schema

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/voiceeval/schematools/tool"
)

// ModelCall is one tool call as a model returns it: an id, a name, and the
// arguments as JSON text.
type ModelCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResult is the result to send back to the model for one call.
type ToolResult struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Result any    `json:"result"`
}

// Dispatch runs the calls of one model turn through set on the live path
// ([tool.Set.CallJSON]): unknown names get the unknown-tool result listing
// the set's tools, malformed arguments a validation result, errors the
// {"error": …} result. At most parallel calls run at once (1 when
// parallel < 1). Results come back in the model's order, one per call.
// The error joins the failures of individual calls: a call whose context
// was cancelled has no Result; one whose after-result hook failed keeps
// the Result it delivered.
func Dispatch(ctx context.Context, set *tool.Set, calls []ModelCall, parallel int, opts ...tool.CallOption) ([]ToolResult, error) {
	if parallel < 1 {
		parallel = 1
	}
	out := make([]ToolResult, len(calls))
	errs := make([]error, len(calls))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range calls {
		out[i] = ToolResult{ID: c.ID, Name: c.Name}
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = fmt.Errorf("schema: call %s (%s): %w", c.ID, c.Name, ctx.Err())
				return
			}
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = fmt.Errorf("schema: call %s (%s): %w", c.ID, c.Name, err)
				return
			}
			delivered := 0
			err := set.CallJSON(ctx, c.Name, []byte(c.Arguments), func(v any) error {
				delivered++
				out[i].Result = v
				return nil
			}, opts...)
			if err == nil && delivered != 1 {
				err = fmt.Errorf("%d deliveries", delivered)
			}
			if err != nil {
				errs[i] = fmt.Errorf("schema: call %s (%s): %w", c.ID, c.Name, err)
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
