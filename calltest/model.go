package calltest

import "fmt"

// Turn is one message of the conversation before the step under test.
type Turn struct {
	Role    string `json:"role"` // "user" or "agent"
	Message string `json:"message"`
}

// Call is one tool call the agent made. Arguments are its decoded JSON
// arguments; decode a model's raw argument text with
// [github.com/voiceeval/schematools/tool.DecodeArgs], which reads it as
// Python's json.loads does and keeps numbers exact (json.Number).
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

// The modes of [Test.Mode], named from the actual calls' point of view.
const (
	modeSuperset   = "superset"
	modeUnordered  = "unordered"
	modeSubset     = "subset"
	modeInOrder    = "in-order"
	modeExactOrder = "exact-order"
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

// boundsText says what b allows: "exactly 1", "at least 2", "1 to 3".
func boundsText(b Bounds) string {
	switch {
	case b.Max == 0:
		return fmt.Sprintf("at least %d", b.Min)
	case b.Min == b.Max:
		return fmt.Sprintf("exactly %d", b.Min)
	}
	return fmt.Sprintf("%d to %d", b.Min, b.Max)
}

// Test is one tool-call test: a conversation so far, and what the agent's
// next step must (or must not) contain.
type Test struct {
	Name    string        `json:"name"`
	History []Turn        `json:"history"`
	Expect  []Expectation `json:"expect"`
	// Mode says how several expectations relate to the actual calls:
	//   - "superset" (the default, also ""): every expectation matches a
	//     distinct actual call; other calls are allowed;
	//   - "unordered": expectations and calls pair up one to one, in any
	//     order; no other calls;
	//   - "subset": every call matches a distinct expectation;
	//     expectations may go unmet;
	//   - "in-order": the expectations match calls in their order; other
	//     calls may come between;
	//   - "exact-order": the i-th call matches the i-th expectation, and
	//     there are exactly as many calls as expectations.
	// Any other value makes the test invalid.
	Mode string `json:"mode,omitempty"`
	// AnyCallMatches passes a single expectation when any of several calls
	// matches it (ElevenLabs' check_any_tool_matches). Without it, a
	// single-expectation test fails when the agent made more than one call,
	// as ElevenLabs does.
	AnyCallMatches bool `json:"any_call_matches,omitempty"`
	// Counts bounds the number of calls per tool name.
	Counts map[string]Bounds `json:"counts,omitempty"`
}
