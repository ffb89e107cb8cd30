package agenttest

import (
	"context"
	"errors"
	"sync"

	"github.com/voiceeval/schematools/agent"
)

// errReleased is what a stalled [Model] call returns when the model is
// armed again.
var errReleased = errors.New("agenttest: stalled model released by Arm")

// Model is an in-process agent.Model that answers with a script's turns
// in order, without HTTP: each Complete takes the next [Turn] (its text,
// its calls, its usage — zero when nil — and the finish reason
// "tool_calls" when it has calls, "stop" otherwise, unless set); the
// turn's faults, quirks, thinking and stream pieces are the [Server]'s
// and are ignored. Once the script is played, every call is answered
// with Fallback — or, when armed to stall, with nothing: the call waits
// until its context ends or the model is armed again. The zero Model has
// an empty script and answers the zero Fallback. Its methods are safe for
// concurrent use; arm it between runs.
type Model struct {
	// Fallback answers the calls past the script.
	Fallback agent.Response

	mu       sync.Mutex
	turns    []Turn
	next     int
	stall    bool
	released chan struct{} // closed by the next Arm
}

// Arm sets the script the next calls play, from its first turn; with
// stall, the calls past it wait instead of answering Fallback. A call
// stalled by the previous script returns an error.
func (m *Model) Arm(turns []Turn, stall bool) {
	m.mu.Lock()
	if m.released != nil {
		close(m.released)
	}
	m.turns, m.next, m.stall, m.released = turns, 0, stall, make(chan struct{})
	m.mu.Unlock()
}

// Complete returns the script's next turn (agent.Model).
func (m *Model) Complete(ctx context.Context, _ agent.Request) (agent.Response, error) {
	m.mu.Lock()
	if m.next >= len(m.turns) {
		stall, released := m.stall, m.released
		m.mu.Unlock()
		if !stall {
			return m.Fallback, nil
		}
		select {
		case <-ctx.Done():
			return agent.Response{}, ctx.Err()
		case <-released:
			return agent.Response{}, errReleased
		}
	}
	defer m.mu.Unlock()
	t := m.turns[m.next]
	m.next++
	r := agent.Response{Text: t.Text, FinishReason: "stop"}
	r.Calls = append(r.Calls, t.Calls...)
	if len(r.Calls) > 0 {
		r.FinishReason = "tool_calls"
	}
	if t.FinishReason != "" {
		r.FinishReason = t.FinishReason
	}
	if t.Usage != nil {
		r.Usage = agent.Usage{PromptTokens: t.Usage.PromptTokens, CompletionTokens: t.Usage.CompletionTokens, TotalTokens: t.Usage.TotalTokens}
	}
	return r, nil
}
