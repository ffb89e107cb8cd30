package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/harness"
	"github.com/voiceeval/schematools/tool"
)

// notesScenario expects the note "buy milk" in the agent's DB.
func notesScenario(t *testing.T, name string) *harness.Scenario {
	t.Helper()
	want, err := dbhash.Hash(map[string]any{"notes": map[string]any{"N1": "buy milk"}})
	if err != nil {
		t.Fatal(err)
	}
	return &harness.Scenario{
		Name: name, Domain: notesDomain, SuccessSignals: []string{"db_state_match"}, ExpectedDBHash: want,
		MaxDuration: 30, AgentPrompt: "You keep the user's notes.", UserPrompt: "Ask the agent to note: buy milk.",
		AgentTools: `{"add_note": {}, "EndConversationTool": {}}`, UserTools: `{}`,
		SharedStateInitAgent: map[string]any{"db": map[string]any{"notes": map[string]any{}}},
	}
}

// trialBots serves one bot pair whose agent notes "buy milk" (a pass) or,
// in the runs fails names by "scenario#trial", "buy bread" (a fail).
func trialBots(t *testing.T, fails map[string]bool, ran *[]string) harness.BotPair {
	t.Helper()
	agentModel := &agenttest.Model{Fallback: agent.Response{Text: "Goodbye.", FinishReason: "stop"}}
	userModel := &agenttest.Model{Fallback: agent.Response{Text: "Please note: buy milk.", FinishReason: "stop"}}
	agentURL, stopAgent, err := serveBot(agentModel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopAgent)
	userURL, stopUser, err := serveBot(userModel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopUser)
	return harness.BotPair{AgentURL: agentURL, UserURL: userURL, Prepare: func(_ context.Context, sc *harness.Scenario, trial int) error {
		key := sc.Name + "#" + string(rune('0'+trial))
		*ran = append(*ran, key)
		note := `{"text": "buy milk"}`
		if fails[key] {
			note = `{"text": "buy bread"}`
		}
		agentModel.Arm([]agenttest.Turn{
			{Calls: []tool.ModelCall{{ID: "c1", Name: "add_note", Arguments: note}}},
			{Text: "Noted. Goodbye!", Calls: []tool.ModelCall{{ID: "c2", Name: "EndConversationTool", Arguments: `{}`}}},
		}, false)
		return nil
	}}
}

func trialOptions(out string, bots harness.BotPair, trials int) harness.EvaluateOptions {
	o := harness.EvaluateOptions{OutputDir: out, Bots: []harness.BotPair{bots}, Session: harness.DefaultSessionOptions(), Trials: trials}
	o.Session.KickoffDelay, o.Session.ExitSettle = -1, 50*time.Millisecond
	o.Session.Score.MinAgentTurns = 0
	return o
}

// Trials: every scenario runs Trials times from a fresh Prepare, each
// trial a run directory in NeMo's layout whose lines carry "trial", the
// statistics at the top; a resume runs only what is missing and can add
// trials.
func TestEvaluateTrials(t *testing.T) {
	var ran []string
	bots := trialBots(t, map[string]bool{"notes__1#2": true, "notes__3#1": true, "notes__3#2": true, "notes__3#3": true}, &ran)
	queue := []*harness.Scenario{notesScenario(t, "notes__1"), notesScenario(t, "notes__2"), notesScenario(t, "notes__3")}
	ev, err := harness.Evaluate(context.Background(), queue, trialOptions(t.TempDir(), bots, 3))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Scenarios != 3 || ev.Trials != 3 || ev.NotSuccessful != 4 {
		t.Errorf("Evaluation %+v, want 3 scenarios, 3 trials, 4 not successful", *ev)
	}
	wantRan := []string{"notes__1#1", "notes__2#1", "notes__3#1", "notes__1#2", "notes__2#2", "notes__3#2", "notes__1#3", "notes__2#3", "notes__3#3"}
	if !slices.Equal(ran, wantRan) {
		t.Errorf("runs %v, want trial by trial %v", ran, wantRan)
	}
	for trial := 1; trial <= 3; trial++ {
		dir := filepath.Join(ev.Dir, "trial_"+string(rune('0'+trial)))
		for _, f := range []string{"results.jsonl", "all_metrics.json", "all_summary.txt", "report.html", "notes__1/metrics.json"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("trial %d: %v", trial, err)
			}
		}
		b, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
		for line := range bytes.Lines(b) {
			var l struct{ Trial int }
			if err := json.Unmarshal(line, &l); err != nil || l.Trial != trial {
				t.Errorf("trial %d: line %.80s… has trial %d (%v)", trial, line, l.Trial, err)
			}
		}
	}

	tr, err := harness.ReadTrials(ev.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range tr.Scenarios {
		c, n := s.Successes, s.Runs
		got = append(got, s.Name+" "+string(rune('0'+c))+"/"+string(rune('0'+n)))
	}
	if want := []string{"notes__1 2/3", "notes__2 3/3", "notes__3 0/3"}; !slices.Equal(got, want) {
		t.Errorf("scenarios %v, want %v", got, want)
	}
	o := tr.Overall
	if o.Scenarios != 3 || o.Runs != 9 || o.Successes != 5 || o.PassAt1 == nil || len(o.PassHatK) != 3 || o.Flaky == nil {
		t.Fatalf("overall %+v", o)
	}
	// pass^k = mean of C(c,k)/C(3,k): (2/3+1+0)/3, (1/3+1+0)/3, (0+1+0)/3.
	for k, want := range []float64{5.0 / 9, 4.0 / 9, 1.0 / 3} {
		if got := o.PassHatK[k].Estimate; got < want-1e-12 || got > want+1e-12 {
			t.Errorf("pass^%d = %v, want %v", k+1, got, want)
		}
		if iv := o.PassHatK[k]; iv.Lo > iv.Estimate || iv.Hi < iv.Estimate {
			t.Errorf("pass^%d interval %+v does not hold its estimate", k+1, iv)
		}
	}
	if *o.Flaky != 1.0/3 || o.PassAt1.Lo >= 5.0/9 || o.PassAt1.Hi <= 5.0/9 {
		t.Errorf("flaky %v, pass@1 %+v", *o.Flaky, *o.PassAt1)
	}
	if len(tr.Domains) != 1 || tr.Domains[0].Domain != "notes" || tr.Domains[0].Runs != 9 {
		t.Errorf("domains %+v", tr.Domains)
	}
	summary, err := os.ReadFile(filepath.Join(ev.Dir, "trials_summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Trials: 3 per scenario, 3 scenario(s) with a verdict", "pass^3  0.333", "notes__1 2/3", "Failed in every trial: 1\n  notes__3 0/3"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("trials_summary.txt lacks %q:\n%s", want, summary)
		}
	}
	if _, err := os.Stat(filepath.Join(ev.Dir, "trials.json")); err != nil {
		t.Error(err)
	}

	// Resume: trial 2 lost notes__2's line (a kill before it was
	// written); a resume with 4 trials runs it and all of trial 4.
	results := filepath.Join(ev.Dir, "trial_2", "results.jsonl")
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var keep []byte
	for line := range bytes.Lines(b) {
		if !bytes.Contains(line, []byte(`"scenario":"notes__2"`)) {
			keep = append(keep, line...)
		}
	}
	if err := os.WriteFile(results, keep, 0o644); err != nil {
		t.Fatal(err)
	}
	ran = nil
	o2 := trialOptions("", bots, 4)
	o2.OutputDir, o2.ResumeDir = "", ev.Dir
	if _, err := harness.Evaluate(context.Background(), queue, o2); err != nil {
		t.Fatal(err)
	}
	if want := []string{"notes__2#2", "notes__1#4", "notes__2#4", "notes__3#4"}; !slices.Equal(ran, want) {
		t.Errorf("resume ran %v, want %v", ran, want)
	}
	tr, err = harness.ReadTrials(ev.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Trials != 4 || tr.Overall.Runs != 12 || len(tr.Overall.PassHatK) != 4 {
		t.Errorf("after resume: %d trials, %d runs, pass^k up to %d", tr.Trials, tr.Overall.Runs, len(tr.Overall.PassHatK))
	}

	// A run of one trial cannot take more.
	ran = nil
	one, err := harness.Evaluate(context.Background(), queue[:1], trialOptions(t.TempDir(), bots, 0))
	if err != nil {
		t.Fatal(err)
	}
	if one.Trials != 1 {
		t.Errorf("Trials 0: %d trials", one.Trials)
	}
	if _, err := os.Stat(filepath.Join(one.Dir, "notes__1", "metrics.json")); err != nil {
		t.Errorf("a run of one trial is in NeMo's layout: %v", err)
	}
	o3 := trialOptions("", bots, 2)
	o3.ResumeDir = one.Dir
	if _, err := harness.Evaluate(context.Background(), queue[:1], o3); err == nil || !strings.Contains(err.Error(), "a run of one trial") {
		t.Errorf("resume of a one-trial run with 2 trials: %v", err)
	}
	if tr, err := harness.ReadTrials(one.Dir); err != nil || tr.Trials != 1 || tr.Overall.Runs != 1 {
		t.Errorf("ReadTrials of a run of one: %+v, %v", tr, err)
	}
}

// A run directory that is not one, or whose trial directories have a gap,
// is refused with its reason; so are Trials out of range.
func TestTrialsRefused(t *testing.T) {
	gap := t.TempDir()
	for _, d := range []string{"trial_1", "trial_3"} {
		if err := os.Mkdir(filepath.Join(gap, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stray := t.TempDir()
	if err := os.Mkdir(filepath.Join(stray, "trial_01"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{t.TempDir(), "not a run directory"},
		{gap, "trial_2 is missing"},
		{stray, `"trial_01" is not a trial directory`},
		{filepath.Join(gap, "nope"), "no such file"},
	} {
		if _, err := harness.ReadTrials(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadTrials(%s): %v, want %q", c.dir, err, c.want)
		}
	}
	for _, n := range []int{-1, 1001} {
		o := harness.EvaluateOptions{OutputDir: t.TempDir(), Bots: []harness.BotPair{{}}, Trials: n}
		if _, err := harness.Evaluate(context.Background(), nil, o); err == nil || !strings.Contains(err.Error(), "Trials") {
			t.Errorf("Trials %d: %v", n, err)
		}
	}
}
