package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// stepText is a step in one line: kind, name or role, texts.
func stepText(s trajStep) string {
	switch s.Kind {
	case "call":
		r := "<none>"
		if s.Result != nil {
			r = s.Result.Text
		}
		return fmt.Sprintf("call %s %s(%s) -> %s", s.ID, s.Name, s.Args.Text, r)
	case "result":
		return fmt.Sprintf("result %s %s", s.ID, s.Text.Text)
	}
	out := s.Role + ": " + s.Text.Text
	if s.Latency != "" {
		out += " [" + s.Latency + "]"
	}
	return out
}

// The trajectory of a context: every user and agent message in order,
// each tool call with the result whose tool_call_id is its id (the first
// later one no earlier call took), unanswered calls and results no call
// asked for shown as such; system messages left out.
func TestTrajectoryOf(t *testing.T) {
	call := func(id, name, args string) string {
		return fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"id": %q, "function": {"name": %q, "arguments": %q}, "type": "function"}]}`, id, name, args)
	}
	result := func(id, content string) string {
		return fmt.Sprintf(`{"role": "tool", "content": %q, "tool_call_id": %q}`, content, id)
	}
	ctx := func(msgs ...string) string { return "[" + strings.Join(msgs, ",\n") + "]" }
	for _, c := range []struct {
		name  string
		ctx   string
		marks []latencyMark
		want  []string
		calls int
		why   string
	}{
		{name: "paired in order", ctx: ctx(`{"role": "system", "content": "secret prompt"}`, `{"role": "user", "content": "Hello"}`,
			call("c1", "get", `{"id": 1}`), result("c1", `{"ok": true}`), `{"role": "assistant", "content": "Done."}`),
			want: []string{"user: Hello", `call c1 get({"id": 1}) -> {"ok": true}`, "agent: Done."}, calls: 1},
		{name: "results out of order", ctx: ctx(
			`{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}, {"id": "b", "function": {"name": "g", "arguments": "{}"}}]}`,
			result("b", "B"), result("a", "A")),
			want: []string{"call a f({}) -> A", "call b g({}) -> B"}, calls: 2},
		{name: "a repeated id pairs each call with the next result", ctx: ctx(call("c", "f", "1"), result("c", "first"), call("c", "f", "2"), result("c", "second")),
			want: []string{"call c f(1) -> first", "call c f(2) -> second"}, calls: 2},
		{name: "unanswered call and unasked result", ctx: ctx(result("x", "early"), call("x", "f", "{}"), result("y", "stray")),
			want: []string{"result x early", "call x f({}) -> <none>", "result y stray"}, calls: 1},
		{name: "a call without an id has no result", ctx: ctx(call("", "f", "{}"), result("", "r")),
			want: []string{"call  f({}) -> <none>", "result  r"}, calls: 1},
		{name: "content parts and object arguments", ctx: ctx(`{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url"}]}`,
			`{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"k": [1, 2]}}}]}`, `{"role": "tool", "content": null, "tool_call_id": "c"}`),
			want: []string{"user: hi\n[image_url]", `call c f({"k": [1, 2]}) -> `}, calls: 1},
		{name: "text and a call in one message", ctx: ctx(`{"role": "assistant", "content": "Checking.", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": ""}}]}`, result("c", "r")),
			want: []string{"agent: Checking.", "call c f() -> r"}, calls: 1},
		{name: "JSON content as its text, an invalid byte replaced", ctx: "[{\"role\": \"user\", \"content\": {\"a\": \"\xff\"}}]",
			want: []string{"user: {\"a\": \"\uFFFD\"}"}},
		{name: "another role, or none", ctx: ctx(`{"role": "function", "content": "legacy"}`, `null`), want: []string{"function: legacy", "(no role): "}},
		{name: "latency on the agent's answers, in order", ctx: ctx(`{"role": "assistant", "content": "Hi"}`, `{"role": "user", "content": "x"}`,
			`{"role": "assistant", "content": "Sure"}`, `{"role": "assistant", "content": "Hi"}`),
			marks: []latencyMark{{Text: "never said", Label: "1 ms"}, {Text: "Sure", Label: "2 ms"}, {Text: " Hi ", Label: "3 ms"}},
			want:  []string{"agent: Hi", "user: x", "agent: Sure [2 ms]", "agent: Hi [3 ms]"}},
		{name: "only a system prompt", ctx: ctx(`{"role": "system", "content": "p"}`), why: "holds no user, agent or tool message"},
		{name: "empty list", ctx: `[]`, why: "holds no user, agent or tool message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := trajectoryOf([]byte(c.ctx), c.marks)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range tr.Steps {
				got = append(got, stepText(s))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("steps\n%q\nwant\n%q", got, c.want)
			}
			if tr.Calls != c.calls {
				t.Errorf("calls %d, want %d", tr.Calls, c.calls)
			}
			if !strings.Contains(tr.Why, c.why) || (c.why == "") != (tr.Why == "") {
				t.Errorf("why %q, want %q", tr.Why, c.why)
			}
		})
	}
}

// A context the report cannot read is the reason there is no trajectory.
func TestTrajectoryOfRefused(t *testing.T) {
	for _, c := range []struct{ ctx, want string }{
		{`{"role": "user"}`, "not a list of messages"},
		{`"text"`, "not a list of messages"},
		{`[{"role": "user", "content": "x"`, "unexpected end of JSON input"},
		{`[{"role": 3}]`, "role"},
		{`[{"role": "assistant", "tool_calls": {"id": "c"}}]`, "tool_calls"},
		{``, "unexpected end of JSON input"},
	} {
		if _, err := trajectoryOf([]byte(c.ctx), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.ctx, err, c.want)
		}
	}
}

// Clipping cuts at a character, never inside one nor inside a WTF-8
// lone surrogate, and says how long the text was.
func TestClip(t *testing.T) {
	lone, err := pyjson.Decode([]byte(`"ab\ud800cd"`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in      string
		limit   int
		want    string
		clipped bool
		chars   int
	}{
		{"hello", 5, "hello", false, 5},
		{"hello", 4, "hell", true, 5},
		{"h\u00e9llo\u2019", 3, "h\u00e9l", true, 6},
		{"\U0001F600\U0001F600", 1, "\U0001F600", true, 2},
		{lone.(string), 3, "ab\xed\xa0\x80", true, 5},
		{"", 0, "", false, 0},
	} {
		got := clip(c.in, c.limit)
		if got.Text != c.want || got.Clipped != c.clipped || got.Chars != c.chars {
			t.Errorf("clip(%q, %d) = %+v, want %q %v %d", c.in, c.limit, got, c.want, c.clipped, c.chars)
		}
	}
	if s := clipString(strings.Repeat("é", clipChars+1)); utf8.RuneCountInString(s) > clipChars+50 || !strings.HasSuffix(s, fmt.Sprintf("[clipped: %d of %d characters]", clipChars, clipChars+1)) {
		t.Errorf("clipString: %q", s[len(s)-60:])
	}
}

// Huge contexts stay bounded: steps past maxSteps are counted, not
// shown; texts are clipped; a report's trajectories share one budget,
// failed scenarios first.
func TestTrajectoryBounds(t *testing.T) {
	long := strings.Repeat(`<"&>`, 2*clipChars)
	var msgs []string
	for i := range maxSteps {
		msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"id": "c%d", "function": {"name": "f", "arguments": %q}}]}`, i, long),
			fmt.Sprintf(`{"role": "tool", "content": %q, "tool_call_id": "c%d"}`, long, i))
		msgs = append(msgs, `{"role": "user", "content": "more"}`)
	}
	tr, err := trajectoryOf([]byte("["+strings.Join(msgs, ",")+"]"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != maxSteps || tr.More != maxSteps || tr.Calls != maxSteps || !tr.Clipped {
		t.Fatalf("%d steps, %d more, %d calls, clipped %v", len(tr.Steps), tr.More, tr.Calls, tr.Clipped)
	}
	for _, s := range tr.Steps {
		if s.Kind == "call" && (s.Result == nil || len(s.Args.Text) != clipChars || len(s.Result.Text) != clipChars || s.Args.Chars != 4*2*clipChars) {
			t.Fatalf("step %+v not clipped", s)
		}
	}
	// escaped, each of the 2×2000 characters of a call step is 4 or 5 bytes
	if tr.size < maxSteps/2*2*clipChars*4 || tr.size > maxSteps*(2*clipChars*5+stepMarkup+20) {
		t.Errorf("size %d", tr.size)
	}

	views := []scenarioView{
		{Name: "p1", Dir: "p1", OutcomeClass: "pass", Trajectory: trajectory{size: 60, File: contextFile}},
		{Name: "f1", Dir: "f1", OutcomeClass: "fail", Trajectory: trajectory{size: 50, File: contextFile}},
		{Name: "f2", Dir: "f2", OutcomeClass: "fail", Trajectory: trajectory{size: 40, File: contextFile}},
		{Name: "p2", Dir: "p2", OutcomeClass: "pass", Trajectory: trajectory{size: 10, File: contextFile}},
		{Name: "p3", Dir: "p3", OutcomeClass: "pass", Trajectory: trajectory{size: 1, File: contextFile}},
		{Name: "x", Dir: "x", OutcomeClass: "fail", Trajectory: trajectory{Why: "no file"}},
	}
	spendBudget(views, 100)
	var kept []string
	for _, v := range views {
		if v.Trajectory.Why == "" {
			kept = append(kept, v.Name)
		}
	}
	// failed first (f1, f2: 90), then the passing ones that still fit
	if want := []string{"f1", "f2", "p2"}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	if w := views[0].Trajectory.Why; !strings.Contains(w, "budget of 100 bytes") || !strings.Contains(w, "p1/bot_logs_agent/llm_context.json") {
		t.Errorf("left out: %q", w)
	}
	if views[5].Trajectory.Why != "no file" {
		t.Errorf("a missing trajectory's reason was replaced: %q", views[5].Trajectory.Why)
	}

	// A whole report of scenarios with huge contexts stays bounded.
	dir := t.TempDir()
	ctx := []byte("[" + strings.Join(msgs, ",") + "]")
	var lines []*resultLine
	for i := range 4 {
		name := fmt.Sprintf("d__%d", i)
		if err := os.MkdirAll(filepath.Join(dir, name, dirBotLogsAgent), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, contextFile), ctx, 0o644); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, &resultLine{Scenario: name, Domain: "d", Metrics: pyvalue.Dict{{Key: "is_successful", Value: i%2 == 0}}})
	}
	page, err := renderReport(reportInput{Title: "t", Lines: lines, Queued: 4, ScenarioDir: func(n string) string { return filepath.Join(dir, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) > trajectoryBudget+100_000 {
		t.Errorf("report of %d bytes from %d-byte contexts", len(page), len(ctx))
	}
	got := strings.Count(string(page), `<details class="trajectory">`)
	if got != 1 || !strings.Contains(string(page), "not embedded: the report&#39;s budget") {
		t.Errorf("%d trajectories embedded in %d bytes; want 1, the others left out", got, len(page))
	}
	// the one embedded is a failed scenario's
	if i := strings.Index(string(page), `<details class="trajectory">`); !strings.Contains(string(page[:i]), `id="d__1"`) || strings.Contains(string(page[:i]), `id="d__2"`) {
		t.Error("the budget went to a passing scenario first")
	}
}

// A missing, unreadable, malformed or oversized context is shown as "No
// trajectory: <reason>" in its scenario; the report is still written.
func TestReportWithoutTrajectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, name, dirBotLogsAgent), 0o755); err != nil {
			t.Fatal(err)
		}
		if b != nil {
			if err := os.WriteFile(filepath.Join(dir, name, contextFile), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("a__missing", nil)
	write("a__malformed", []byte(`[{"role": "user", "content": `))
	write("a__object", []byte(`{"messages": []}`))
	write("a__ok", []byte(`[{"role": "user", "content": "hi <b>"}]`))
	write("a__huge", nil)
	f, err := os.Create(filepath.Join(dir, "a__huge", contextFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxContextBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	write("a__dir", nil)
	if err := os.Mkdir(filepath.Join(dir, "a__dir", contextFile), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"a__missing", "a__malformed", "a__object", "a__ok", "a__huge", "a__dir"}
	var lines []*resultLine
	for _, n := range names {
		lines = append(lines, &resultLine{Scenario: n, Domain: "a", Metrics: pyvalue.Dict{{Key: "is_successful", Value: false}}})
	}
	page, err := renderReport(reportInput{Title: "t", Lines: lines, Queued: len(lines), ScenarioDir: func(n string) string { return filepath.Join(dir, n) }})
	if err != nil {
		t.Fatal(err)
	}
	sections := strings.Split(string(page), "<section ")[1:]
	if len(sections) != len(names) {
		t.Fatalf("%d sections", len(sections))
	}
	for i, want := range []string{
		"No trajectory: no bot_logs_agent/llm_context.json (the agent&#39;s context was not pulled)",
		"No trajectory: bot_logs_agent/llm_context.json: unexpected end of JSON input",
		"No trajectory: bot_logs_agent/llm_context.json: not a list of messages",
		"Trajectory (1 step, 0 tool calls)",
		fmt.Sprintf("No trajectory: llm_context.json is %d bytes, over the report&#39;s bound of %d", maxContextBytes+1, maxContextBytes),
		"No trajectory: read ",
	} {
		if !strings.Contains(sections[i], want) {
			t.Errorf("%s lacks %q:\n%s", names[i], want, sections[i])
		}
	}
	if !strings.Contains(sections[3], "hi &lt;b&gt;") {
		t.Errorf("a__ok's message is not escaped: %s", sections[3])
	}
	// Without scenario directories (a report from results.jsonl alone).
	page, err = renderReport(reportInput{Title: "t", Lines: lines[:1], Queued: 1})
	if err != nil || !strings.Contains(string(page), "No trajectory: no scenario directory") {
		t.Errorf("no directory: %v", err)
	}
}

// Per-turn latency in the transcript: the agent's samples (metrics
// latencies, with latency_detail.json's LLM times and kickoff), the user
// bot's from latency_detail.json; a sample matching no turn is left out.
func TestTranscriptLatency(t *testing.T) {
	dir := t.TempDir()
	name := "a__1"
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	detail := `{"agent": {"relayed": 2, "replies": [
	  {"user_transcript": "book it", "agent_transcript": "Booked.", "first_speech_ms": 812.5, "llm_started_ms": 100.25, "llm_text_ms": null},
	  {"user_transcript": "bye", "agent_transcript": "gone", "first_speech_ms": 90.0, "llm_started_ms": null, "llm_text_ms": null}]},
	 "user": {"relayed": 1, "replies": [{"user_transcript": "book it", "agent_transcript": "Hi, what can I do?", "first_speech_ms": 55.5, "llm_started_ms": null, "llm_text_ms": null}]},
	 "kickoff": {"user_transcript": "Hello", "agent_transcript": "Hi, what can I do?", "first_speech_ms": 300.0, "llm_started_ms": null, "llm_text_ms": 250.0}}`
	if err := os.WriteFile(filepath.Join(dir, name, fileLatencyDetail), []byte(detail), 0o644); err != nil {
		t.Fatal(err)
	}
	turns := []any{
		pyvalue.Dict{{Key: "role", Value: "agent"}, {Key: "text", Value: "Hi, what can I do?"}},
		pyvalue.Dict{{Key: "role", Value: "user"}, {Key: "text", Value: "book it"}},
		pyvalue.Dict{{Key: "role", Value: "agent"}, {Key: "text", Value: "Booked."}},
	}
	lats := []any{
		pyvalue.Dict{{Key: "user_transcript", Value: "book it"}, {Key: "agent_transcript", Value: "Booked."}, {Key: "latency_ms", Value: 812.5}},
		pyvalue.Dict{{Key: "user_transcript", Value: "bye"}, {Key: "agent_transcript", Value: "gone"}, {Key: "latency_ms", Value: 90.0}},
	}
	l := &resultLine{Scenario: name, Domain: "a", Metrics: pyvalue.Dict{{Key: "turns", Value: turns}, {Key: "latencies", Value: lats}}}
	v := scenarioOf(l, filepath.Join(dir, name), name)
	var got []string
	for _, tv := range v.Turns {
		got = append(got, tv.Role+" "+tv.Latency)
	}
	want := []string{"agent answered the kickoff in 300.0 ms (first LLM text 250.0 ms)", "user 55.5 ms", "agent 812.5 ms (LLM started 100.2 ms)"}
	if !slices.Equal(got, want) {
		t.Errorf("latencies\n%q\nwant\n%q", got, want)
	}
	// Without latency_detail.json: metrics latencies alone.
	v = scenarioOf(l, t.TempDir(), name)
	if v.Turns[2].Latency != "812.5 ms" || v.Turns[0].Latency != "" || v.Turns[1].Latency != "" {
		t.Errorf("without detail: %+v", v.Turns)
	}
}

// trajectoryOf never panics, and what it keeps is bounded and valid UTF-8.
func FuzzTrajectoryOf(f *testing.F) {
	f.Add([]byte(`[{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "content": "x", "tool_call_id": "a"}]`), "x")
	f.Add([]byte(`[{"role": "user", "content": [{"text": "\xff"}, 3]}, {"role": "tool", "tool_call_id": "zz"}, null]`), "")
	f.Add(fixtureToolContext, "Let me check <script>alert(1)</script> that for you.")
	f.Fuzz(func(t *testing.T, b []byte, mark string) {
		tr, err := trajectoryOf(b, []latencyMark{{Text: mark, Label: "1 ms"}})
		if err != nil {
			return
		}
		if len(tr.Steps) > maxSteps {
			t.Fatalf("%d steps", len(tr.Steps))
		}
		for _, s := range tr.Steps {
			for _, c := range []*clipped{&s.Text, &s.Args, s.Result} {
				if c != nil && (utf8.RuneCountInString(c.Text) > clipChars || !utf8.ValidString(c.Text)) {
					t.Fatalf("text %q", c.Text)
				}
			}
		}
	})
}
