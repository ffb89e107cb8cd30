package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/tool"
)

// A Model plays its script in order, then its fallback.
func ExampleModel() {
	m := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	m.Arm([]agenttest.Turn{
		{Calls: []tool.ModelCall{{ID: "c1", Name: "get_order", Arguments: `{"id":"7"}`}}},
		{Text: "Your order is on its way."},
	}, false)
	for range 3 {
		r, _ := m.Complete(context.Background(), agent.Request{})
		fmt.Printf("%q %d call(s) %s\n", r.Text, len(r.Calls), r.FinishReason)
	}
	// Output:
	// "" 1 call(s) tool_calls
	// "Your order is on its way." 0 call(s) stop
	// "Goodbye." 0 call(s) stop
}

func TestModelTurns(t *testing.T) {
	m := &agenttest.Model{}
	m.Arm([]agenttest.Turn{
		{Text: "a", Usage: &agenttest.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}},
		{Text: "b", FinishReason: "length"},
	}, false)
	r, err := m.Complete(context.Background(), agent.Request{})
	if err != nil || r.Text != "a" || r.Usage != (agent.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}) || r.FinishReason != "stop" {
		t.Fatalf("first turn %+v, %v", r, err)
	}
	if r, _ = m.Complete(context.Background(), agent.Request{}); r.Text != "b" || r.FinishReason != "length" {
		t.Errorf("second turn %+v", r)
	}
	if r, _ = m.Complete(context.Background(), agent.Request{}); r.Text != "" || r.FinishReason != "" {
		t.Errorf("past the script: %+v, want the zero fallback", r)
	}
	// Arm starts a new script from its first turn.
	m.Arm([]agenttest.Turn{{Text: "c"}}, false)
	if r, _ = m.Complete(context.Background(), agent.Request{}); r.Text != "c" {
		t.Errorf("re-armed: %+v", r)
	}
}

// A stalling model waits past its script until the call's context ends,
// or until it is armed again.
func TestModelStalls(t *testing.T) {
	m := &agenttest.Model{Fallback: agent.Response{Text: "never"}}
	m.Arm(nil, true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := m.Complete(ctx, agent.Request{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stalled call: %v, want the deadline", err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := m.Complete(context.Background(), agent.Request{})
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond)
	m.Arm(nil, false)
	select {
	case err := <-errc:
		// Released with an error; or, when the call came after Arm, the
		// new script's fallback.
		t.Logf("released: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("Arm did not release the stalled call")
	}
	if r, err := m.Complete(context.Background(), agent.Request{}); err != nil || r.Text != "never" {
		t.Errorf("after re-arming without stall: %+v, %v", r, err)
	}
}
