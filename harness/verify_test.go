package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// fakeParams are the arguments of the fake domain's tools.
type fakeParams struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// fakeTools is a small reference domain: set writes items[key] = value,
// mint writes items[<fresh id>] = value, refuse answers an error result.
func fakeTools(env replay.Env) (replay.ToolMap, error) {
	write := func(st *state.Shared, key, value string) error {
		return st.UpdateTables([]string{"items"}, func(db map[string]any) error {
			items, _ := db["items"].(map[string]any)
			if items == nil {
				items = map[string]any{}
				db["items"] = items
			}
			items[key] = value
			return nil
		})
	}
	set, err := tool.New("set", "Set an item.", func(_ context.Context, st *state.Shared, p fakeParams) (any, error) {
		return "ok", write(st, p.Key, p.Value)
	}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	mint, err := tool.New("mint", "Add an item under a fresh id.", func(_ context.Context, st *state.Shared, p fakeParams) (any, error) {
		return "ok", write(st, env.IDs(), p.Value)
	}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	refuse, err := tool.New("refuse", "Refuse.", func(context.Context, *state.Shared, fakeParams) (any, error) {
		return tool.Failure("refused", "not today"), nil
	}, &tool.Options{State: env.Agent})
	if err != nil {
		return nil, err
	}
	m := replay.ToolMap{}
	return m, m.Add(set, mint, refuse)
}

// rec is an action record as a bot reports it.
func rec(name string, args map[string]any) map[string]any {
	return map[string]any{"action_type": name, "name": name, "arguments": args, "result": "ok"}
}

func setRec(key, value string) map[string]any {
	return rec("set", map[string]any{"key": key, "value": value})
}

func hashOf(t *testing.T, db map[string]any) *string {
	t.Helper()
	h, err := dbhash.Hash(db)
	if err != nil {
		t.Fatal(err)
	}
	return &h
}

// sum is a summary of the actions, hash and DB given.
func sum(hash *string, db map[string]any, actions ...any) *Summary {
	if actions == nil {
		actions = []any{}
	}
	return &Summary{Actions: actions, DBHash: hash, DB: db}
}

func items(kv ...string) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return map[string]any{"items": m}
}

// checkVerdict fails unless v is want (true, false or NotApplicable) with
// a reason containing each of reasons.
func checkVerdict(t *testing.T, v *Verification, want any, reasons ...string) {
	t.Helper()
	if v == nil {
		t.Fatalf("no verification, want %v", want)
	}
	if v.Value() != want {
		t.Fatalf("summary_verified %v (%s), want %v", v.Value(), v.Reason, want)
	}
	if want == true && v.Reason != "" {
		t.Errorf("verified with a reason: %s", v.Reason)
	}
	for _, r := range reasons {
		if !strings.Contains(v.Reason, r) {
			t.Errorf("reason %q lacks %q", v.Reason, r)
		}
	}
}

// The verification's rules on a small one-sided domain.
func TestVerifySummariesRules(t *testing.T) {
	a1 := items("a", "1")
	ab := items("a", "1", "b", "2")
	base := &Reference{Tools: fakeTools}
	twoWays := func(record any) ([]Call, error) { // stands for set(a, 9) or its own call
		calls, err := decodeAction(record)
		if err != nil {
			return nil, err
		}
		return append([]Call{{Name: "set", Arguments: map[string]any{"key": "a", "value": "9"}}}, calls...), nil
	}
	for _, tc := range []struct {
		name       string
		ref        *Reference
		agent      *Summary
		user       *Summary
		init       map[string]any // shared_state_init of the agent
		want       any
		reasons    []string
		nilVerdict bool
	}{
		{name: "no reference: no verification", agent: sum(nil, nil), nilVerdict: true},
		{name: "nothing done, nothing reported", ref: base, agent: sum(nil, nil), want: true},
		{name: "one write reproduced", ref: base, agent: sum(hashOf(t, a1), nil, setRec("a", "1")), want: true},
		{name: "two writes with the DB sent", ref: base, agent: sum(hashOf(t, ab), ab, setRec("a", "1"), setRec("b", "2")), want: true},
		{name: "a hash without the work", ref: base, agent: sum(hashOf(t, ab), nil),
			want: false, reasons: []string{"agent " + notReproducible + ": replayed hash null, reported " + *hashOf(t, ab)}},
		{name: "a write reported, not applied", ref: base, agent: sum(hashOf(t, a1), nil, setRec("a", "1"), setRec("b", "2")),
			want: false, reasons: []string{"replayed hash " + *hashOf(t, ab) + ", reported " + *hashOf(t, a1)}},
		{name: "a write applied, not reported", ref: base, agent: sum(hashOf(t, ab), nil, setRec("a", "1")), want: false, reasons: []string{notReproducible}},
		{name: "the DB sent is not the hash's", ref: base, agent: sum(hashOf(t, a1), ab, setRec("a", "1")),
			want: false, reasons: []string{"agent summary's db does not hash to its db_hash: db " + *hashOf(t, ab)}},
		{name: "an empty DB sent with a hash", ref: base, agent: sum(hashOf(t, a1), map[string]any{}, setRec("a", "1")),
			want: false, reasons: []string{"db null, db_hash " + *hashOf(t, a1)}},
		{name: "fake actions", ref: base, agent: sum(hashOf(t, a1), nil, rec("lookup", nil), rec("charge", map[string]any{"n": 1}), setRec("a", "1")),
			want: false, reasons: []string{"action 1 (lookup) does not replay: missing tool", "action 2 (charge) does not replay: missing tool"}},
		{name: "many fake actions", ref: base, agent: sum(nil, nil, rec("a", nil), rec("b", nil), rec("c", nil), rec("d", nil), rec("e", nil)),
			want: false, reasons: []string{"action 3 (c) does not replay: missing tool: no tool named \"c\"; and 2 more"}},
		{name: "an action the tool refuses", ref: base, agent: sum(nil, nil, rec("refuse", map[string]any{"key": "a", "value": "1"})),
			want: false, reasons: []string{"action 1 (refuse) does not replay: error result: not today"}},
		{name: "bad arguments", ref: base, agent: sum(nil, nil, rec("set", map[string]any{"key": 3})),
			want: false, reasons: []string{"action 1 (set) does not replay: error result"}},
		{name: "records that cannot be read", ref: base, agent: sum(nil, nil, "set", map[string]any{"arguments": map[string]any{}}, map[string]any{"name": "set", "arguments": []any{1}}),
			want: false, reasons: []string{"action 1 cannot be read: the record is a str", "action 2 cannot be read: its name is None", "action 3 cannot be read: its arguments are a list"}},
		{name: "a fresh id drawn", ref: base, agent: sum(hashOf(t, items("verify-1", "x")), nil, rec("mint", map[string]any{"key": "", "value": "x"})),
			want: notApplicable, reasons: []string{"skipped: replaying the agent actions drew a fresh id"}},
		{name: "unverifiable domain", ref: &Reference{Tools: fakeTools, Unverifiable: "fake's tools read the wall clock"}, agent: sum(nil, nil),
			want: notApplicable, reasons: []string{"skipped: fake's tools read the wall clock"}},
		{name: "no tools", ref: &Reference{}, agent: sum(nil, nil), want: notApplicable, reasons: []string{"skipped: the fake reference has no tools"}},
		{name: "no agent summary", ref: base, want: notApplicable, reasons: []string{"skipped: no agent summary was pulled"}},
		{name: "a user summary with actions of its own", ref: base, agent: sum(nil, nil), user: sum(nil, nil, setRec("a", "1")),
			want: false, reasons: []string{"user " + notReproducible + ": replayed hash " + *hashOf(t, a1) + ", reported null"}},
		{name: "a user summary, honest", ref: base, agent: sum(hashOf(t, a1), nil, setRec("a", "1")), user: sum(hashOf(t, a1), nil, setRec("a", "1")), want: true},
		{name: "an inline DB to start from", ref: base, init: map[string]any{"db": items("z", "0")},
			agent: sum(hashOf(t, items("z", "0", "a", "1")), nil, setRec("a", "1")), want: true},
		{name: "a db_path without a reference DB", ref: base, init: map[string]any{"db_path": "fake/db.json"}, agent: sum(nil, nil),
			want: notApplicable, reasons: []string{"skipped: the fake reference has no agent DB for db_path 'fake/db.json'"}},
		{name: "a record of two calls, the second reproduces", ref: &Reference{Tools: fakeTools, Decode: twoWays},
			agent: sum(hashOf(t, a1), nil, setRec("a", "1")), want: true},
		{name: "a record of two calls, neither reproduces", ref: &Reference{Tools: fakeTools, Decode: twoWays},
			agent: sum(hashOf(t, items("a", "5")), nil, setRec("a", "1")), want: false, reasons: []string{"replayed hash " + *hashOf(t, items("a", "9"))}},
		{name: "too many combinations", ref: &Reference{Tools: fakeTools, Decode: twoWays},
			agent: sum(nil, nil, setRec("a", "1"), setRec("a", "1"), setRec("a", "1"), setRec("a", "1"), setRec("a", "1"), setRec("a", "1"), setRec("a", "1")),
			want:  notApplicable, reasons: []string{"more than 64 combinations"}},
		{name: "a decoder that panics", ref: &Reference{Tools: fakeTools, Decode: func(any) ([]Call, error) { panic("boom") }},
			agent: sum(nil, nil, setRec("a", "1")), want: false, reasons: []string{"action 1 cannot be read: decoding it panicked: boom"}},
		{name: "a decoder that finds no call", ref: &Reference{Tools: fakeTools, Decode: func(any) ([]Call, error) { return nil, nil }},
			agent: sum(nil, nil, setRec("a", "1")), want: false, reasons: []string{"it stands for no call"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &Scenario{Name: "fake__1", Domain: "fake", SharedStateInitAgent: tc.init}
			run := &Run{Scenario: Scenario{Name: sc.Name, Domain: sc.Domain}}
			run.Agent.Summary, run.User.Summary = tc.agent, tc.user
			v := VerifySummaries(context.Background(), tc.ref, sc, run, nil)
			if tc.nilVerdict {
				if v != nil {
					t.Fatalf("verification %+v, want none", v)
				}
				return
			}
			checkVerdict(t, v, tc.want, tc.reasons...)
			t.Logf("%v: %s", v.Value(), v.Reason)
		})
	}
}

// tau2Reference is the reference of a tau2 domain, on its DB files, with
// the tau2 reference date for a clock.
func tau2Reference(t *testing.T, domain string) (*Reference, domains.Domain) {
	t.Helper()
	d, err := domains.Find(domain)
	if err != nil {
		t.Fatal(err)
	}
	ref := &Reference{Hooks: d.Hooks, Tools: d.Replay, Clock: replay.FixedClock(time.Date(2025, time.February, 25, 0, 0, 0, 0, time.UTC))}
	if ref.AgentDB, err = state.LoadSourceFS(d.Files, d.DB); err != nil {
		t.Fatal(err)
	}
	if d.UserDB != "" {
		if ref.UserDB, err = state.LoadSourceFS(d.Files, d.UserDB); err != nil {
			t.Fatal(err)
		}
	}
	return ref, d
}

// goldRun is a run of the scenario whose summaries are the gold replay's
// of task id: the records each side appended (as a bot sends them, JSON
// decoded), in order, and the final hashes; order lists the records'
// sides and names in the order they were appended.
func goldRun(t *testing.T, ref *Reference, d domains.Domain, name, id string) (run *Run, sc *Scenario, order []SyncRecord) {
	t.Helper()
	data, err := fs.ReadFile(d.Files, "tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := replay.DecodeTasks(data)
	if err != nil {
		t.Fatal(err)
	}
	var task *replay.Task
	for i := range tasks {
		if tasks[i].ID == id {
			task = &tasks[i]
		}
	}
	if task == nil {
		t.Fatalf("no task %q", id)
	}
	res, err := replay.Gold(context.Background(), replay.Scenario{Domain: d.Name, Task: *task, DB: ref.AgentDB, UserDB: ref.UserDB,
		Tools: ref.Tools, Hooks: ref.Hooks, Clock: ref.Clock, HashesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	sc = scenario(t, name)
	run = &Run{}
	fillScenario(run, sc) // what RunScenario passes on: the setup is not in the run
	agent, user := []any{}, []any{}
	for _, a := range res.Actions {
		side, _ := a["side"].(string)
		delete(a, "side")
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var r any
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if side == "user" {
			user = append(user, r)
		} else {
			agent = append(agent, r)
		}
		n, _ := a["name"].(string)
		order = append(order, SyncRecord{Source: side, Action: n})
	}
	agentHash, userHash := res.DBHash, res.UserDBHash
	run.Agent.Summary = sum(&agentHash, nil, agent...)
	if ref.UserDB != nil {
		run.User.Summary = sum(&userHash, nil, user...)
	} else {
		run.User.Summary = sum(nil, nil)
	}
	return run, sc, order
}

// A tau2 airline gold run verifies; the same summaries with one action
// left out, or the gold hash and no action, do not.
func TestVerifySummariesAirline(t *testing.T) {
	ref, d := tau2Reference(t, "tau2_airline")
	run, sc, _ := goldRun(t, ref, d, "tau2_airline__7", "7")
	if len(run.Agent.Summary.Actions) == 0 {
		t.Fatal("the gold of task 7 writes nothing")
	}
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, run, nil), true)

	dropped := *run
	s := *run.Agent.Summary
	s.Actions = s.Actions[1:]
	dropped.Agent.Summary = &s
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, &dropped, nil), false, "agent "+notReproducible+": replayed hash ")

	lazy := *run
	lazy.Agent.Summary = sum(run.Agent.Summary.DBHash, nil)
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, &lazy, nil), false, "reported "+*run.Agent.Summary.DBHash)
}

// A telecom gold run replays both sides in the order of the run's
// action-applied messages; without them the order cannot be known.
func TestVerifySummariesTelecom(t *testing.T) {
	const name = "tau2_telecom__mobile_data_issue__data_usage_exceeded__user_abroad_roaming_enabled_off__easy"
	const id = "[mobile_data_issue]data_usage_exceeded|user_abroad_roaming_enabled_off[PERSONA:Easy]"
	ref, d := tau2Reference(t, "tau2_telecom")
	run, sc, order := goldRun(t, ref, d, name, id)
	if len(run.Agent.Summary.Actions) == 0 || len(run.User.Summary.Actions) == 0 {
		t.Fatalf("the gold acts on one side only: %v", order)
	}
	syncs := append([]SyncRecord{{}}, order...) // the initial sync first, as RunScenario records it
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, run, syncs), true)

	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, run, nil), notApplicable, "skipped: the order of the agent's and the user's actions cannot be known")
	wrong := append([]SyncRecord{}, order...)
	wrong[0].Action += "_x"
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, run, wrong), notApplicable, "cannot be known")
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, run, order[:len(order)-1]), notApplicable, "cannot be known")

	// The user's phone fixed without the user doing it.
	lazy := *run
	lazy.User.Summary = sum(run.User.Summary.DBHash, nil)
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, &lazy, syncs), false, "user "+notReproducible+": replayed hash ")

	noUser := *run
	noUser.User.Summary = nil
	checkVerdict(t, VerifySummaries(context.Background(), ref, sc, &noUser, syncs), notApplicable, "skipped: no user summary was pulled")

	// One side's actions alone need no order.
	agentOnly := *run
	agentOnly.User.Summary = sum(run.User.Summary.DBHash, nil)
	v := VerifySummaries(context.Background(), ref, sc, &agentOnly, nil)
	checkVerdict(t, v, false, "user "+notReproducible)
}

// summary_verified and summary_verification follow NeMo's keys and
// harness_error; a run not verified has neither.
func TestVerificationMetricsKeys(t *testing.T) {
	f, tr := false, true
	for _, tc := range []struct {
		v    *Verification
		tail string
	}{
		{nil, `"is_task_successful": true
}`},
		{&Verification{Verified: &tr}, `"is_task_successful": true,
  "summary_verified": true
}`},
		{&Verification{Verified: &f, Reason: "agent summary not reproducible from its actions: x"}, `"is_task_successful": true,
  "summary_verified": false,
  "summary_verification": "agent summary not reproducible from its actions: x"
}`},
		{&Verification{Reason: "skipped: y"}, `"is_task_successful": true,
  "summary_verified": "N/A",
  "summary_verification": "skipped: y"
}`},
	} {
		task := true
		m := &Metrics{IsActionMatch: notApplicable, IsSuccessful: true, IsTaskSuccessful: &task, Verification: tc.v, HarnessError: ""}
		b, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(b), tc.tail) {
			t.Errorf("metrics.json ends\n%s\nwant\n%s", b[max(0, len(b)-200):], tc.tail)
		}
	}
	// With harness_error too, ours come after it.
	task := true
	m := &Metrics{IsActionMatch: notApplicable, IsSuccessful: false, IsTaskSuccessful: &task, HarnessError: "failed: z", Verification: &Verification{Verified: &tr}}
	if b, _ := m.MarshalJSON(); !strings.HasSuffix(string(b), `"harness_error": "failed: z",
  "summary_verified": true
}`) {
		t.Errorf("metrics.json ends %s", b[max(0, len(b)-200):])
	}
	// Score passes the run's verdict on, and changes no verdict of NeMo's.
	run := &Run{Scenario: Scenario{Name: "x__1", SuccessSignals: []string{signalCleanExit}}, StopReason: stopReasonExit}
	plain, err := Score(context.Background(), run, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	run.Verification = &Verification{Verified: &f, Reason: "agent " + notReproducible}
	verified, err := Score(context.Background(), run, defaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := plain.Metrics.MarshalJSON()
	b, _ := verified.Metrics.MarshalJSON()
	want := strings.TrimSuffix(string(a), "\n}") + ",\n  \"summary_verified\": false,\n  \"summary_verification\": \"agent " + notReproducible + "\"\n}"
	if string(b) != want {
		t.Errorf("verified metrics.json:\n%s\nwant:\n%s", b, want)
	}
}

// report.html flags a summary not reproducible from its actions, and
// counts the summaries checked.
func TestReportFlagsUnreproducibleSummaries(t *testing.T) {
	line := func(name string, v *Verification) *resultLine {
		task := true
		m := &Metrics{ScenarioName: name, IsActionMatch: notApplicable, IsSuccessful: true, IsTaskSuccessful: &task, Verification: v}
		return &resultLine{Scenario: name, Domain: prefix(name), Metrics: m.dict()}
	}
	f, tr := false, true
	html, err := renderReport(reportInput{Title: "t", Queued: 3, Lines: []*resultLine{
		line("a__1", &Verification{Verified: &tr}),
		line("a__2", &Verification{Verified: &f, Reason: "agent " + notReproducible + ": replayed hash h1, reported h2"}),
		line("b__1", &Verification{Reason: "skipped: b's tools read the clock"}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	if !strings.Contains(s, "Summaries replayed from their actions: 2 checked, 1 not reproducible, 1 skipped") {
		t.Errorf("no summary count in the report")
	}
	if n := strings.Count(s, `class="harness-error summary-flag"`); n != 1 {
		t.Errorf("%d flags, want 1", n)
	}
	i := strings.Index(s, `data-scenario="a__2"`)
	j := strings.Index(s, "Summary not reproducible from its actions</b> agent "+notReproducible+": replayed hash h1, reported h2")
	if i < 0 || j < i || (strings.Contains(s[i:], `data-scenario="b__1"`) && j > i+strings.Index(s[i:], `data-scenario="b__1"`)) {
		t.Errorf("a__2 is not flagged (%d, %d)", i, j)
	}
	plain, err := renderReport(reportInput{Title: "t", Queued: 1, Lines: []*resultLine{line("a__1", nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "Summaries replayed") {
		t.Error("a run not verified shows a count")
	}
}

// DecodeAction never panics, and reads back the record it decodes.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{`{"name": "set", "arguments": {"key": "a"}}`, `{"name": "x"}`, `{"name": 1}`, `[1]`, `null`, `{"name": "x", "arguments": null}`, `{"name": "x", "arguments": [1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var rec any
		if json.Unmarshal(data, &rec) != nil {
			return
		}
		calls, err := decodeAction(rec)
		if err != nil {
			return
		}
		if len(calls) != 1 || calls[0].Name == "" || calls[0].Arguments == nil {
			t.Fatalf("DecodeAction(%s) = %v", data, calls)
		}
		m := rec.(map[string]any)
		if calls[0].Name != m["name"] || fmt.Sprint(calls[0].Arguments) != fmt.Sprint(orEmpty(asMap(m["arguments"]))) {
			t.Fatalf("DecodeAction(%s) = %v", data, calls)
		}
	})
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
