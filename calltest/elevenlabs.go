package calltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/voiceeval/schematools/tool"
)

// problem is one reason a test document was refused, shaped like the
// entries of ElevenLabs' 422 validation errors: a location, a message and
// a type.
type problem struct {
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

// loadError lists every problem of a refused test document.
type loadError struct {
	Problems []problem `json:"detail"`
}

func (e *loadError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		loc := make([]string, len(p.Loc))
		for j, l := range p.Loc {
			loc[j] = fmt.Sprint(l)
		}
		parts[i] = strings.Join(loc, ".") + ": " + p.Msg
	}
	return "calltest: invalid test document: " + strings.Join(parts, "; ")
}

// Unwrap makes errors.Is(err, ErrInvalidTest) hold.
func (e *loadError) Unwrap() error { return ErrInvalidTest }

// elevenLabsTest is the create-test body of an ElevenLabs tool test.
type elevenLabsTest struct {
	Type               string            `json:"type"`
	Name               string            `json:"name"`
	ChatHistory        []json.RawMessage `json:"chat_history"`
	ToolCallParameters *struct {
		ReferencedTool *struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"referenced_tool"`
		Parameters    json.RawMessage `json:"parameters"`
		VerifyAbsence bool            `json:"verify_absence"`
	} `json:"tool_call_parameters"`
	CheckAnyToolMatches *bool `json:"check_any_tool_matches"`
}

// loadElevenLabs reads a test in ElevenLabs' create-test shape (type
// "tool"): chat_history, tool_call_parameters {referenced_tool,
// parameters [{path, eval}], verify_absence} and check_any_tool_matches.
// The referenced tool's id is taken as the tool's name. Every problem —
// parameters given as an object, an unknown eval type, exact without
// expected_value, regex without pattern (or an invalid one), llm without
// description, bracket paths, an empty history or one ending on an agent
// turn, parameters with verify_absence — is reported in one error
// wrapping [ErrInvalidTest], each problem with its location in the
// document ("body.tool_call_parameters.parameters.0: ..."), as ElevenLabs'
// 422 validation errors locate them. Unknown fields (dynamic_variables,
// workflow_node_transition, …) are ignored.
//
// With tools, the test is also checked against them as [Check] does with
// [Options.Tools]: an unknown referenced tool or a path outside its schema
// is a load error.
func loadElevenLabs(data []byte, tools ...tool.Tool) (Test, error) {
	var doc elevenLabsTest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return Test{}, &loadError{Problems: []problem{{Loc: []any{"body"}, Msg: "not a JSON test object: " + err.Error(), Type: "json_invalid"}}}
	}
	if _, err := dec.Token(); err != io.EOF {
		return Test{}, &loadError{Problems: []problem{{Loc: []any{"body"}, Msg: "trailing data after the test object", Type: "json_invalid"}}}
	}
	var probs []problem
	add := func(msg, typ string, loc ...any) {
		probs = append(probs, problem{Loc: append([]any{"body"}, loc...), Msg: msg, Type: typ})
	}
	if doc.Type != "tool" {
		add(fmt.Sprintf("type must be \"tool\", got %q", doc.Type), "value_error", "type")
	}
	t := Test{Name: doc.Name, Mode: modeSuperset}
	if len(doc.ChatHistory) == 0 {
		add("chat_history must not be empty", "value_error", "chat_history")
	}
	for i, raw := range doc.ChatHistory {
		var turn Turn
		if err := json.Unmarshal(raw, &turn); err != nil {
			add("not a chat turn: "+err.Error(), "value_error", "chat_history", i)
			continue
		}
		if turn.Role != "user" && turn.Role != "agent" {
			add(fmt.Sprintf("role must be \"user\" or \"agent\", got %q", turn.Role), "enum", "chat_history", i, "role")
		}
		t.History = append(t.History, turn)
	}
	if n := len(t.History); n > 0 && t.History[n-1].Role == "agent" {
		add("chat_history must end on the turn just before the expected tool call (usually a user turn), not on an agent turn", "value_error", "chat_history", n-1)
	}
	t.AnyCallMatches = doc.CheckAnyToolMatches != nil && *doc.CheckAnyToolMatches
	e := Expectation{}
	if tcp := doc.ToolCallParameters; tcp != nil {
		if tcp.ReferencedTool != nil {
			e.Tool = tcp.ReferencedTool.ID
		}
		e.Absent = tcp.VerifyAbsence
		params := bytes.TrimSpace(tcp.Parameters)
		switch {
		case len(params) == 0 || string(params) == "null":
		case params[0] == '{':
			add(`parameters must be an array of {"path", "eval"} objects, not an object`, "list_type", "tool_call_parameters", "parameters")
		default:
			var list []struct {
				Path string          `json:"path"`
				Eval json.RawMessage `json:"eval"`
			}
			pdec := json.NewDecoder(bytes.NewReader(params))
			pdec.UseNumber()
			if err := pdec.Decode(&list); err != nil {
				add("parameters: "+err.Error(), "list_type", "tool_call_parameters", "parameters")
			}
			for i, p := range list {
				loc := []any{"tool_call_parameters", "parameters", i}
				var pc ParamCheck
				var fields map[string]json.RawMessage
				edec := json.NewDecoder(bytes.NewReader(p.Eval))
				edec.UseNumber()
				if len(p.Eval) == 0 || json.Unmarshal(p.Eval, &fields) != nil || edec.Decode(&pc) != nil {
					add("eval must be an object with a type", "value_error", append(loc, "eval")...)
					continue
				}
				for f := range fields {
					switch f {
					case "type", "expected_value", "pattern", "description":
					default:
						add(fmt.Sprintf("eval field %q is not part of ElevenLabs' format", f), "extra_forbidden", append(loc, "eval", f)...)
					}
				}
				pc.Path = p.Path
				switch pc.Type {
				case evalAnything, evalExact, evalRegex, evalLLM:
				default:
					add(fmt.Sprintf("unknown eval type %q (ElevenLabs has anything, exact, regex and llm)", pc.Type), "union_tag_invalid", append(loc, "eval", "type")...)
					continue
				}
				if pc.Type == evalExact {
					if _, isStr := pc.ExpectedValue.(string); !isStr {
						add(`exact needs expected_value as a string (stringify numbers and booleans: "6", "true")`, "missing", append(loc, "eval", "expected_value")...)
						continue
					}
				}
				if err := pc.compile(); err != nil {
					add(err.Error(), "value_error", loc...)
					continue
				}
				e.Params = append(e.Params, pc)
			}
		}
		if e.Absent && len(e.Params) > 0 {
			add("verify_absence takes no parameters: the tool must not be called at all", "value_error", "tool_call_parameters", "parameters")
		}
		if e.Absent && e.Tool == "" {
			add("verify_absence needs a referenced_tool", "missing", "tool_call_parameters", "referenced_tool")
		}
	}
	if e.Tool == "" && !e.Absent && !t.AnyCallMatches {
		add("referenced_tool is required unless check_any_tool_matches is true", "missing", "tool_call_parameters", "referenced_tool")
	}
	if len(probs) > 0 {
		return Test{}, &loadError{Problems: probs}
	}
	t.Expect = []Expectation{e}
	if len(tools) > 0 {
		check := cloneTest(t)
		if err := validate(&check, toolMap(tools)); err != nil {
			return Test{}, &loadError{Problems: []problem{{Loc: []any{"body", "tool_call_parameters"}, Msg: err.Error(), Type: "not_found"}}}
		}
	}
	return t, nil
}

// conditionResult is ElevenLabs' result shape.
type conditionResult struct {
	Result    string `json:"result"` // success, failure or unknown
	Rationale struct {
		Messages []string `json:"messages"`
		Summary  string   `json:"summary"`
	} `json:"rationale"`
}

// conditionResult renders the result in ElevenLabs' condition_result
// shape: one message per failed or unknown check, problem or expectation.
func (r Result) conditionResult() conditionResult {
	var out conditionResult
	out.Rationale.Messages = []string{}
	switch r.Status {
	case Pass:
		out.Result = "success"
	case Unknown:
		out.Result = "unknown"
	default:
		out.Result = "failure"
	}
	for _, e := range r.Expectations {
		if e.Reason != "" && e.Status != Pass {
			out.Rationale.Messages = append(out.Rationale.Messages, e.Reason)
		}
		for _, p := range e.Params {
			if p.Status != Pass && e.Status == Unknown {
				out.Rationale.Messages = append(out.Rationale.Messages, p.Path+": "+p.Message)
			}
		}
	}
	out.Rationale.Messages = append(out.Rationale.Messages, r.Problems...)
	switch r.Status {
	case Pass:
		out.Rationale.Summary = "the agent's tool calls met every expectation"
	case Unknown:
		out.Rationale.Summary = "a check needs a judge's verdict; no pass was assumed"
	default:
		out.Rationale.Summary = fmt.Sprintf("%d problem(s) with the agent's tool calls", len(out.Rationale.Messages))
	}
	return out
}
