package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/voiceeval/schematools/tool"
)

// RepairTextCalls wraps m so that a tool call a model wrote as text is
// made a tool call: a response with no calls whose whole text is one JSON
// object {"name": N, "arguments": {…}} (or a list of them), bare or in a
// ```json fence, each N a tool the request offers, becomes those calls,
// its text dropped, its finish reason "tool_calls". Small models write
// their calls so (a 0.5B Qwen on llama.cpp does, with 17 tau2 tools).
//
// It is a repair, off unless asked for: a pipecat bot speaks such text as
// it is, and so does the loop without this wrapper. The calls get ids
// "text-call-<n>"; the response is otherwise unchanged (usage included).
// A request that forbids calls ([Request.NoCalls]) is answered as the
// model answered it: its text is the words it was asked for.
func RepairTextCalls(m Model) Model {
	var n atomic.Int64
	return ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		resp, err := m.Complete(ctx, req)
		if err != nil || len(resp.Calls) > 0 || req.Tools == nil || req.NoCalls {
			return resp, err
		}
		calls, ok := textCalls(resp.Text, req.Tools.Names())
		if !ok {
			return resp, nil
		}
		for i := range calls {
			calls[i].ID = fmt.Sprintf("text-call-%d", n.Add(1))
		}
		resp.Calls, resp.Text, resp.FinishReason = calls, "", "tool_calls"
		return resp, nil
	})
}

// textCalls reads text as tool calls written as JSON: one object
// {"name": N, "arguments": {…}} or a list of them, bare or in a Markdown
// code fence, every N one of names. ok is false for anything else (text
// around the JSON, another shape, an unknown name); the calls have no ids.
func textCalls(text string, names []string) (calls []tool.ModelCall, ok bool) {
	s := strings.TrimSpace(text)
	if body, found := strings.CutPrefix(s, "```"); found {
		body = strings.TrimPrefix(body, "json")
		body, found = strings.CutSuffix(strings.TrimSpace(body), "```")
		if !found {
			return nil, false
		}
		s = strings.TrimSpace(body)
	}
	var raw []json.RawMessage
	switch {
	case strings.HasPrefix(s, "["):
		if json.Unmarshal([]byte(s), &raw) != nil || len(raw) == 0 {
			return nil, false
		}
	case strings.HasPrefix(s, "{"):
		raw = []json.RawMessage{json.RawMessage(s)}
	default:
		return nil, false
	}
	for _, r := range raw {
		var c struct {
			Name      *string         `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if dec.Decode(&c) != nil || dec.More() || c.Name == nil || !slices.Contains(names, *c.Name) {
			return nil, false
		}
		args := bytes.TrimSpace(c.Arguments)
		if len(args) == 0 || args[0] != '{' {
			return nil, false
		}
		calls = append(calls, tool.ModelCall{Name: *c.Name, Arguments: string(args)})
	}
	return calls, true
}
