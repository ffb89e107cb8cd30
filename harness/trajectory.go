package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Bounds of what report.html embeds of a scenario, so that a huge context
// or turn cannot blow the page up (docs/decisions.md, "From verdicts to decisions (issue #38)").
const (
	// clipChars bounds each text shown (a message, a tool call's
	// arguments, a result, a transcript turn, a DB diff value), in
	// characters; the page says what it clipped.
	clipChars = 2000
	// maxSteps bounds the trajectory steps, the transcript turns and the
	// DB diff rows shown per scenario.
	maxSteps = 300
	// maxContextBytes: a larger llm_context.json is not read (the pull's
	// default FileBytes is 32 MiB).
	maxContextBytes = 64 << 20
	// trajectoryBudget bounds the bytes of trajectories in one report
	// (their texts as escaped, and stepMarkup per step): failed scenarios
	// take it first, then the others in page order; a trajectory that no
	// longer fits is left out, with the reason.
	trajectoryBudget = 4 << 20
	// stepMarkup is what a step's markup costs, at most, besides its texts.
	stepMarkup = 400
)

// escapedLen is len(s) once html/template has escaped it (&, <, >, ' and
// " take 4 or 5 bytes; a NUL 3).
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&', '\'', '"':
			n += 4
		case '<', '>':
			n += 3
		case 0:
			n += 2
		}
	}
	return n
}

// clipped is a text as the report shows it: at most clipChars
// characters of it.
type clipped struct {
	Text    string
	Clipped bool // Text is the start of a longer text
	Chars   int  // the whole text's characters
}

// clip returns s cut to limit characters. A cut never splits a character
// nor a WTF-8 lone surrogate (written \udXXX when the page is written),
// which counts as one character.
func clip(s string, limit int) clipped {
	n, cut := 0, len(s)
	for i := 0; i < len(s); n++ {
		if n == limit {
			cut = i
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		if w == 1 && s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			w = 3 // a lone surrogate
		}
		i += w
	}
	if n <= limit {
		return clipped{Text: s, Chars: n}
	}
	return clipped{Text: s[:cut], Clipped: true, Chars: n}
}

// trajStep is one step of a scenario's trajectory: a user or agent
// message of the agent's context, or a tool call with its result.
type trajStep struct {
	// Kind is "user", "agent", "call", "result" (a tool message no call
	// of the context asked for) or "other" (a message of another role).
	Kind string
	// Role labels the step ("user", "agent", "tool call", …).
	Role string
	// Text is a message's text or an unpaired result's content.
	Text clipped
	// Name and ID are a call's tool name and call id (an unpaired
	// result's tool_call_id).
	Name, ID string
	Args     clipped
	// Result is the content of the tool message answering the call, nil
	// when the context has none.
	Result *clipped
	// Latency is the turn's response time where a sample matched it ("" without).
	Latency string
}

// trajectory is what the report shows of the agent's context.
type trajectory struct {
	Steps []trajStep
	// Calls counts the tool calls of the context (shown or not).
	Calls int
	// More counts the steps past maxSteps, not shown.
	More int
	// Clipped: some text is clipped.
	Clipped bool
	// Why is why there is no trajectory ("" when there is one).
	Why string
	// File is the context's path in the run directory (for the page).
	File string
	size int // bytes it takes in the page, at most (escapedLen, stepMarkup)
}

// ctxMessage is one message of a pulled llm_context.json (the OpenAI
// shape pipecat's LLMContext holds).
type ctxMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

// rawText is a JSON value as text: a string as it is, a list of content
// parts as their texts (a part without text as its [type]), null as "",
// anything else as its JSON.
func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []map[string]json.RawMessage
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			if t, ok := p["text"]; ok {
				out = append(out, rawText(t))
			} else {
				out = append(out, "["+rawText(p["type"])+"]")
			}
		}
		return strings.Join(out, "\n")
	}
	return strings.ToValidUTF8(string(raw), "\uFFFD") // raw bytes, unlike decoded strings, may be invalid
}

// latencyMark is a response time to show at a turn whose text is Text.
type latencyMark struct {
	Text, Label string
}

// placeMarks puts marks, in order, on the turns of texts (one role's, in
// order): each on the first turn after the previous mark's whose text is
// its own (spaces trimmed); a mark no such turn matches is left out.
// It returns the label of each turn ("" for none).
func placeMarks(texts []string, marks []latencyMark) []string {
	labels := make([]string, len(texts))
	at := 0
	for _, m := range marks {
		want := strings.TrimSpace(m.Text)
		for i := at; i < len(texts); i++ {
			if strings.TrimSpace(texts[i]) == want {
				labels[i], at = m.Label, i+1
				break
			}
		}
	}
	return labels
}

// latencyMarks are a scenario's response times by role: the agent's from
// metrics latencies (NeMo's samples; with latency_detail.json's LLM times
// and the kickoff answer), the user bot's from latency_detail.json.
func latencyMarks(m pyvalue.Dict, detail []byte) (agent, user []latencyMark) {
	var det any
	if detail != nil {
		det, _ = pyvalue.Loads(detail) // an unreadable detail adds nothing
	}
	ms := func(d any, key string) (float64, bool) {
		v, ok := dictGet(d, key)
		if !ok || v == nil {
			return 0, false
		}
		return num(v), true
	}
	llm := func(d any) string {
		var parts []string
		if v, ok := ms(d, "llm_started_ms"); ok {
			parts = append(parts, "LLM started "+fixed(v, 1)+" ms")
		}
		if v, ok := ms(d, "llm_text_ms"); ok {
			parts = append(parts, "first LLM text "+fixed(v, 1)+" ms")
		}
		if parts == nil {
			return ""
		}
		return " (" + strings.Join(parts, ", ") + ")"
	}
	if k, ok := dictGet(det, "kickoff"); ok && k != nil {
		t, _ := dictGet(k, "agent_transcript")
		if v, ok := ms(k, "first_speech_ms"); ok {
			agent = append(agent, latencyMark{Text: pyvalue.Str(t), Label: "answered the kickoff in " + fixed(v, 1) + " ms" + llm(k)})
		}
	}
	side := func(name string) []any {
		s, _ := dictGet(det, name)
		r, _ := dictGet(s, "replies")
		l, _ := r.([]any)
		return l
	}
	lats, _ := get(m, "latencies").([]any)
	replies := side("agent")
	for i, l := range lats {
		t, _ := dictGet(l, "agent_transcript")
		v, _ := dictGet(l, "latency_ms")
		label := fixed(num(v), 1) + " ms"
		if len(replies) == len(lats) {
			label += llm(replies[i])
		}
		agent = append(agent, latencyMark{Text: pyvalue.Str(t), Label: label})
	}
	for _, r := range side("user") {
		t, _ := dictGet(r, "user_transcript")
		if v, ok := ms(r, "first_speech_ms"); ok {
			user = append(user, latencyMark{Text: pyvalue.Str(t), Label: fixed(v, 1) + " ms" + llm(r)})
		}
	}
	return agent, user
}

// contextFile is the agent's pulled context in a scenario directory.
var contextFile = filepath.Join(dirBotLogsAgent, fileLLMContext)

// readTrajectory reads the trajectory of the scenario directory dir:
// the agent's context, its tool calls paired with their results by call
// id; agent messages carry the agent's latency marks. It never fails:
// what it cannot read is the trajectory's Why.
func readTrajectory(dir string, marks []latencyMark) trajectory {
	tr := trajectory{File: filepath.ToSlash(contextFile)}
	b, err := readOptional(filepath.Join(dir, contextFile), maxContextBytes)
	switch {
	case err != nil:
		tr.Why = err.Error()
		return tr
	case b == nil:
		tr.Why = "no " + tr.File + " (the agent's context was not pulled)"
		return tr
	}
	tr, err = trajectoryOf(b, marks)
	tr.File = filepath.ToSlash(contextFile)
	if err != nil {
		tr.Why = tr.File + ": " + err.Error()
	}
	return tr
}

// trajectoryOf reads an llm_context.json text: every user and assistant
// message in order (system messages left out), each assistant tool call
// with the content of the tool message that answers its id (the first
// one after it not taken by an earlier call), tool messages no call took
// as steps of their own.
func trajectoryOf(b []byte, marks []latencyMark) (trajectory, error) {
	var tr trajectory
	var msgs []ctxMessage
	if err := json.Unmarshal(b, &msgs); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && ute.Field == "" {
			return tr, errors.New("not a list of messages")
		}
		return tr, err
	}
	// Pair: for each call, the first later tool message with its id.
	results := map[string][]int{}
	for i, m := range msgs {
		if m.Role == "tool" && m.ToolCallID != "" {
			results[m.ToolCallID] = append(results[m.ToolCallID], i)
		}
	}
	taken := map[int]bool{}
	answer := func(id string, after int) (int, bool) {
		if id == "" {
			return 0, false
		}
		for _, j := range results[id] {
			if j > after && !taken[j] {
				taken[j] = true
				return j, true
			}
		}
		return 0, false
	}
	type call struct{ msg, n, result int }
	var calls []call
	for i, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		for n, c := range m.ToolCalls {
			r, ok := answer(c.ID, i)
			if !ok {
				r = -1
			}
			calls = append(calls, call{i, n, r})
		}
	}
	tr.Calls = len(calls)
	var agentTexts []string
	var agentSteps []int
	add := func(s trajStep) {
		if len(tr.Steps) >= maxSteps {
			tr.More++
			return
		}
		tr.size += stepMarkup
		for _, c := range []*clipped{&s.Text, &s.Args, s.Result} {
			if c != nil {
				tr.size += escapedLen(c.Text)
				tr.Clipped = tr.Clipped || c.Clipped
			}
		}
		tr.size += escapedLen(s.Name) + escapedLen(s.ID)
		tr.Steps = append(tr.Steps, s)
	}
	ci := 0
	for i, m := range msgs {
		switch m.Role {
		case "system", "developer":
			continue
		case "user":
			add(trajStep{Kind: "user", Role: "user", Text: clip(rawText(m.Content), clipChars)})
		case "assistant":
			if text := rawText(m.Content); strings.TrimSpace(text) != "" {
				if len(tr.Steps) < maxSteps {
					agentTexts, agentSteps = append(agentTexts, text), append(agentSteps, len(tr.Steps))
				}
				add(trajStep{Kind: "agent", Role: "agent", Text: clip(text, clipChars)})
			}
			for ; ci < len(calls) && calls[ci].msg == i; ci++ {
				c := m.ToolCalls[calls[ci].n]
				s := trajStep{Kind: "call", Role: "tool call", Name: clip(c.Function.Name, 200).Text, ID: clip(c.ID, 200).Text,
					Args: clip(rawText(c.Function.Arguments), clipChars)}
				if r := calls[ci].result; r >= 0 {
					res := clip(rawText(msgs[r].Content), clipChars)
					s.Result = &res
				}
				add(s)
			}
		case "tool":
			if !taken[i] {
				add(trajStep{Kind: "result", Role: "tool result", ID: clip(m.ToolCallID, 200).Text, Text: clip(rawText(m.Content), clipChars)})
			}
		default:
			role := clip(m.Role, 40).Text
			if role == "" {
				role = "(no role)"
			}
			add(trajStep{Kind: "other", Role: role, Text: clip(rawText(m.Content), clipChars)})
		}
	}
	for i, l := range placeMarks(agentTexts, marks) {
		tr.Steps[agentSteps[i]].Latency = l
		tr.size += len(l)
	}
	if len(tr.Steps) == 0 && tr.More == 0 {
		tr.Why = "the agent's context holds no user, agent or tool message"
	}
	return tr, nil
}

// spendBudget leaves out the trajectories that do not fit the report's
// budget: failed scenarios first, then the others, each in page order.
func spendBudget(views []scenarioView, budget int) {
	left := budget
	for _, failedPass := range []bool{true, false} {
		for i := range views {
			v := &views[i]
			if (v.OutcomeClass == "fail") != failedPass || v.Trajectory.Why != "" {
				continue
			}
			if v.Trajectory.size > left {
				v.Trajectory = trajectory{File: v.Trajectory.File, Calls: v.Trajectory.Calls,
					Why: fmt.Sprintf("not embedded: the report's budget of %d bytes of trajectories is spent (failed scenarios first); read %s/%s", budget, v.Dir, v.Trajectory.File)}
				continue
			}
			left -= v.Trajectory.size
		}
	}
}
