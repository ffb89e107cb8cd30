package calltest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Turn is one message of the conversation before the step under test.
type Turn struct {
	Role    string `json:"role"` // "user" or "agent"
	Message string `json:"message"`
}

// Call is one tool call the agent made.
type Call struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// Step is the agent's next step: its tool calls (possibly none) and any
// text it said.
type Step struct {
	Calls []Call `json:"calls"`
	Text  string `json:"text,omitempty"`
}

// ParseArguments decodes a call's JSON arguments (ElevenLabs keeps them as
// params_as_json) with exact numbers. Empty input means no arguments.
func ParseArguments(raw string) (map[string]any, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("calltest: tool call arguments are not a JSON object: %w", err)
	}
	return m, nil
}

// Mode says how several expected calls relate to the actual calls.
type Mode string

// Modes, named from the actual calls' point of view.
const (
	// Superset: every expectation matches a distinct actual call; other
	// calls are allowed. The default.
	Superset Mode = "superset"
	// Unordered: expectations and actual calls pair up one to one, in any
	// order; no other calls.
	Unordered Mode = "unordered"
	// Subset: every actual call matches a distinct expectation;
	// expectations may go unmet.
	Subset Mode = "subset"
	// InOrder: the expectations match actual calls in their order; other
	// calls may come between.
	InOrder Mode = "in-order"
	// ExactOrder: the i-th actual call matches the i-th expectation, and
	// there are exactly as many calls as expectations.
	ExactOrder Mode = "exact-order"
)

// Expectation is one expected (or forbidden) tool call.
type Expectation struct {
	// Tool is the tool's name. Empty matches any tool (ElevenLabs'
	// check_any_tool_matches with no referenced tool).
	Tool string `json:"tool,omitempty"`
	// Params are checks on the call's arguments.
	Params []ParamCheck `json:"params,omitempty"`
	// Absent inverts the expectation: no call may match it (ElevenLabs'
	// verify_absence). It must not carry Params.
	Absent bool `json:"absent,omitempty"`
}

// Bounds limit how many times a tool may be called in the step. Max 0
// means no upper bound.
type Bounds struct {
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

// Test is one tool-call test: a conversation so far, and what the agent's
// next step must (or must not) contain.
type Test struct {
	Name    string        `json:"name"`
	History []Turn        `json:"history"`
	Expect  []Expectation `json:"expect"`
	// Mode relates several expectations to the calls; default Superset.
	Mode Mode `json:"mode,omitempty"`
	// AnyCallMatches passes a single expectation when any of several calls
	// matches it (ElevenLabs' check_any_tool_matches). Without it, a
	// single-expectation test fails when the agent made more than one call,
	// as ElevenLabs does.
	AnyCallMatches bool `json:"any_call_matches,omitempty"`
	// Counts bounds the number of calls per tool name.
	Counts map[string]Bounds `json:"counts,omitempty"`
}
