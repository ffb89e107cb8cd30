//go:build pipecat

// The comparison of a real pipecat bot with the Go LLM bot (build tag
// pipecat: it needs Python and the bot's virtual environment, which
// scripts/pipecatbot.sh installs; CI runs it with -tags pipecat).
//
//	PIPECATBOT=$PWD/scripts/pipecatbot.sh go test -tags pipecat -run TestPipecatBot -count=1 ./cmd/evaluate
//
// For each scenario of testdata/pipecat/scenarios.txt this command runs
// twice, against external bots as it would against NeMo's: once with
// examples/pipecatbot (pipecat 1.6.0's RTVI processor, context aggregators
// and OpenAILLMService; our handlers and tools) as the agent, once with
// the Go LLM bot (cmd/rtvibot -llm-url) as the agent. Both agents'
// models are the same stand-in playing the task's gold script; the user
// simulator is the same Go LLM bot on a user stand-in in both runs (the
// gold script gets two spoken turns, which the user answers, so turns are
// relayed both ways). Must be equal: the verdicts (metrics.json but its
// timings), the recorded turns (roles and texts), the pulled summaries,
// both bots' llm_context.json byte for byte, the number of model calls and
// the messages each call sent the model. Then a pipecat bot whose
// get_order_details results have their keys reversed (the bot's test-only
// switch PIPECATBOT_REORDER_RESULT) must be caught, in key order only.
//
// Environment: PIPECATBOT (required: the script), PIPECATBOT_REQUIREMENTS
// (passed to it: requirements-1.14.txt runs today's pipecat),
// PIPECATBOT_SCENARIOS (comma-separated, instead of the file; the count
// check is then skipped), PIPECATBOT_KEEP (a directory to keep the runs in),
// PIPECATBOT_GO_BOT (a Go LLM bot binary to compare with, instead of one
// built from cmd/rtvibot -llm-url).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/tau2script"
)

// The spoken turns added to each gold script, so that the conversation
// relays turns both ways: the agent asks after its first call and before
// its goodbye, and the user simulator answers.
const (
	agentAsks    = "I have found your records. Shall I go ahead?"
	agentChecks  = "That is all done. Is there anything else I can help you with?"
	userConfirms = "Yes, that's right. Please go ahead."
	userDone     = "No, that's all. Thank you."
)

// minPipecatScenarios is the fewest scenarios the list may hold.
const minPipecatScenarios = 12

// TestPipecatBot compares the pipecat bot with the Go LLM bot on every
// scenario of the list, then shows that the comparison catches a change
// of key order alone.
func TestPipecatBot(t *testing.T) {
	names := pipecatScenarios(t)
	h := newPipecatHarness(t)
	pipecat := h.startPipecat(t, nil)
	runs := map[string]pipecatRun{}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			got := h.play(t, name, pipecat)
			want := h.play(t, name, h.goAgent)
			runs[name] = got
			if diffs := compareRuns(got, want); len(diffs) > 0 {
				t.Errorf("%s: the pipecat bot (%s) and the Go LLM bot differ:\n%s", name, got.dir, strings.Join(diffs, "\n"))
			}
			if !got.successful {
				t.Errorf("%s: the pipecat bot's run is not successful (%s)", name, got.dir)
			}
			if _, note := compareRequests(got.requests, want.requests); note != "" {
				t.Logf("%s: note: %s", name, note)
			}
		})
	}
	// A pipecat bot whose get_order_details results have their keys
	// reversed (the bot's test-only switch) differs from the same bot
	// without the switch in key order only, and the comparison says so.
	t.Run("key_order_is_caught", func(t *testing.T) {
		const name = "tau2_retail__66"
		plain, ok := runs[name]
		if !ok {
			plain = h.play(t, name, pipecat)
		}
		reordered := h.play(t, name, h.startPipecat(t, []string{"PIPECATBOT_REORDER_RESULT=GetOrderDetailsTool"}))
		diffs := compareRuns(reordered, plain)
		caught := false
		for _, d := range diffs {
			caught = caught || strings.HasPrefix(d, "bot_logs_agent/llm_context.json: key order only")
			if !strings.Contains(d, "key order only") {
				t.Errorf("a difference other than key order: %s", d)
			}
		}
		if !caught {
			t.Fatalf("the reordered result was not caught in the agent's context; differences:\n%s", strings.Join(diffs, "\n"))
		}
		t.Logf("caught:\n%s", strings.Join(diffs, "\n"))
	})
}

// pipecatScenarios reads the scenario list (or PIPECATBOT_SCENARIOS).
func pipecatScenarios(t *testing.T) []string {
	t.Helper()
	if s := os.Getenv("PIPECATBOT_SCENARIOS"); s != "" {
		return splitURLs(s)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "pipecat", "scenarios.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	perDomain := map[string]int{}
	for line := range strings.SplitSeq(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			names = append(names, line)
			d, _, _ := strings.Cut(line, "__")
			perDomain[d]++
		}
	}
	if len(names) < minPipecatScenarios || perDomain["tau2_airline"] == 0 || perDomain["tau2_retail"] == 0 {
		t.Fatalf("testdata/pipecat/scenarios.txt: %d scenarios (%v); want at least %d, on tau2_airline and tau2_retail", len(names), perDomain, minPipecatScenarios)
	}
	return names
}

// pipecatHarness holds what both runs share: the data root, the two
// stand-ins, the Go bots and the script.
type pipecatHarness struct {
	script, root, out string
	agentLLM, userLLM *agenttest.Swap
	agentBase         string // the agent stand-in's base URL
	goAgent, goUser   string
}

func newPipecatHarness(t *testing.T) *pipecatHarness {
	t.Helper()
	script := os.Getenv("PIPECATBOT")
	if script == "" {
		t.Fatal("PIPECATBOT is not set: give the path of scripts/pipecatbot.sh (this test runs only with -tags pipecat, and needs the bot)")
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("PIPECATBOT: %v", err)
	}
	h := &pipecatHarness{script: script, root: t.TempDir(), out: os.Getenv("PIPECATBOT_KEEP"), agentLLM: &agenttest.Swap{}, userLLM: &agenttest.Swap{}}
	if h.out == "" {
		h.out = t.TempDir()
	}
	if err := domains.WriteDataRoot(h.root); err != nil {
		t.Fatal(err)
	}
	agentSrv, userSrv := httptest.NewServer(h.agentLLM), httptest.NewServer(h.userLLM)
	t.Cleanup(agentSrv.Close)
	t.Cleanup(userSrv.Close)
	bin := buildGoLLMBot(t)
	h.agentBase = agentSrv.URL + "/v1"
	h.goAgent = startGoLLMBot(t, bin, h.agentBase, h.root)
	h.goUser = startGoLLMBot(t, bin, userSrv.URL+"/v1", h.root)
	return h
}

// buildGoLLMBot builds cmd/rtvibot -llm-url (or takes
// PIPECATBOT_GO_BOT).
func buildGoLLMBot(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("PIPECATBOT_GO_BOT"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "rtvibot")
	cmd := exec.Command("go", "build", "-o", bin, "./rtvibot")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/rtvibot: %v\n%s", err, out)
	}
	return bin
}

// startGoLLMBot starts the Go LLM bot on a free loopback port and returns
// its URL once it listens.
func startGoLLMBot(t *testing.T, bin, llmURL, root string) string {
	t.Helper()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-llm-url", llmURL, "-data", root)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("rtvibot: %v", err)
	}
	// "rtvibot listening on ws://127.0.0.1:PORT with MODEL at URL"
	for f := range strings.FieldsSeq(line) {
		if strings.HasPrefix(f, "ws://") {
			return f
		}
	}
	t.Fatalf("rtvibot: no URL in %q", line)
	return ""
}

// startPipecat starts a pipecat bot with the script (env added to the
// bot's environment) and returns its URL.
func (h *pipecatHarness) startPipecat(t *testing.T, env []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	log := filepath.Join(h.out, fmt.Sprintf("pipecatbot-%d.log", time.Now().UnixNano()))
	cmd := exec.CommandContext(ctx, "bash", h.script, "start", "--", "--llm-url", h.agentBase, "--data", h.root)
	cmd.Env = append(append(os.Environ(), "PIPECATBOT_LOG="+log), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s start: %v\n%s", h.script, err, stderr.String())
	}
	pidText, url, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	pid, perr := strconv.Atoi(pidText)
	if !ok || perr != nil || !strings.HasPrefix(url, "ws://") {
		t.Fatalf("%s start printed %q, want \"PID URL\"", h.script, out)
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Signal(syscall.SIGTERM)
		}
		if t.Failed() {
			if text, err := os.ReadFile(log); err == nil {
				t.Logf("pipecat bot log (%s), last 4 KiB:\n%s", log, tail(text, 4096))
			}
		}
	})
	return url
}

// pipecatRun is one scenario's run, as the comparison reads it.
type pipecatRun struct {
	dir        string
	successful bool
	files      map[string][]byte // compared byte for byte
	metrics    map[string]any    // metrics.json without its timings
	turns      []turn
	served     int // responses the agent's stand-in gave
	requests   []agenttest.Request
}

type turn struct{ Role, Text string }

// pipecatScripts returns the scenario's agent and user scripts: the gold
// script with two spoken turns, and the user's two answers.
func pipecatScripts(t *testing.T, name string) (agentTurns, userTurns []agenttest.Turn) {
	t.Helper()
	group, id, _ := strings.Cut(name, "__")
	d, err := tau2script.Load(group)
	if err != nil {
		t.Fatal(err)
	}
	task, err := d.TaskByScenario(id)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := d.Script(task, tau2script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// gold: the calls, then the goodbye with the end call, then the goodbye.
	calls, ending := gold[:len(gold)-2], gold[len(gold)-2:]
	agentTurns = append(agentTurns, calls[0], agenttest.Turn{Text: agentAsks})
	agentTurns = append(agentTurns, calls[1:]...)
	agentTurns = append(agentTurns, agenttest.Turn{Text: agentChecks})
	agentTurns = append(agentTurns, ending...)
	for i := range agentTurns {
		u := tau2script.Usage(i)
		agentTurns[i].Usage = &u
	}
	userTurns = []agenttest.Turn{
		{Text: userConfirms, Usage: &agenttest.Usage{PromptTokens: 300, CompletionTokens: 9, TotalTokens: 309}},
		{Text: userDone, Usage: &agenttest.Usage{PromptTokens: 340, CompletionTokens: 7, TotalTokens: 347}},
	}
	return agentTurns, userTurns
}

// comparedFiles are the files of a scenario's directory compared byte for
// byte.
var comparedFiles = []string{
	"bot_logs_agent/llm_context.json",
	"bot_logs_user/llm_context.json",
	"pulled_summary.json",
	"final_agent_response.json",
	"final_scenario_db_hash.txt",
}

// timingKeys are metrics.json's keys that are timings, left out of the
// comparison (turns are compared by role and text).
var timingKeys = []string{"duration_seconds", "scenario_duration", "scenario_directory", "latencies", "turns"}

// play runs scenario name with agentURL as the agent and the Go user bot,
// through this command as it runs against NeMo's bots.
func (h *pipecatHarness) play(t *testing.T, name, agentURL string) pipecatRun {
	t.Helper()
	agentTurns, userTurns := pipecatScripts(t, name)
	agentLLM := h.agentLLM.Set(agentTurns...)
	h.userLLM.Set(userTurns...)
	out, err := os.MkdirTemp(h.out, name+"-")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", name, "-agent-url", agentURL, "-user-url", h.goUser, "-out", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("evaluate %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	dirs, err := filepath.Glob(filepath.Join(out, "eval_*", name))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("evaluate wrote no scenario directory under %s: %v", out, err)
	}
	r := pipecatRun{dir: dirs[0], files: map[string][]byte{}, served: agentLLM.Served(), requests: agentLLM.Requests()}
	for _, f := range comparedFiles {
		if r.files[f], err = os.ReadFile(filepath.Join(r.dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Turns []turn `json:"turns"`
	}
	if err := json.Unmarshal(data, &r.metrics); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	r.turns = m.Turns
	r.successful = r.metrics["is_successful"] == true
	for _, k := range timingKeys {
		delete(r.metrics, k)
	}
	if ls, ok := r.metrics["latency_stats"].(map[string]any); ok {
		r.metrics["latency_stats"] = map[string]any{"count": ls["count"]}
	}
	return r
}

// compareRuns lists how got differs from want.
func compareRuns(got, want pipecatRun) []string {
	var diffs []string
	for _, k := range sortedKeys(got.metrics, want.metrics) {
		if !reflect.DeepEqual(got.metrics[k], want.metrics[k]) {
			diffs = append(diffs, fmt.Sprintf("metrics.json %s: %s, want %s", k, short(got.metrics[k]), short(want.metrics[k])))
		}
	}
	if !reflect.DeepEqual(got.turns, want.turns) {
		diffs = append(diffs, fmt.Sprintf("turns: %s\nwant   %s", short(got.turns), short(want.turns)))
	}
	if got.served != want.served {
		diffs = append(diffs, fmt.Sprintf("the agent's model was called %d times, want %d", got.served, want.served))
	}
	for _, f := range comparedFiles {
		if !bytes.Equal(got.files[f], want.files[f]) {
			diffs = append(diffs, f+": "+describeDiff(got.files[f], want.files[f]))
		}
	}
	if d, _ := compareRequests(got.requests, want.requests); d != "" {
		diffs = append(diffs, d)
	}
	return diffs
}

// compareRequests compares what the agent's model was sent, request by
// request: the messages byte for byte (roles, contents as sent, calls),
// the tools offered by value. A difference of the tools' key order alone
// is a note, not a failure: the Go bot's schema export orders each
// property's keys its own way (docs/decisions.md, "A real pipecat bot in
// CI").
func compareRequests(got, want []agenttest.Request) (diff, note string) {
	for i := range min(len(got), len(want)) {
		g, err1 := json.Marshal(got[i].Messages)
		w, err2 := json.Marshal(want[i].Messages)
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("model request %d: %v %v", i+1, err1, err2), ""
		}
		if !bytes.Equal(g, w) {
			return fmt.Sprintf("model request %d, messages: %s", i+1, describeDiff(indent(g), indent(w))), ""
		}
		g, _ = json.Marshal(got[i].Tools)
		w, _ = json.Marshal(want[i].Tools)
		if !bytes.Equal(g, w) {
			d := describeDiff(indent(g), indent(w))
			if !strings.HasPrefix(d, "key order only") {
				return fmt.Sprintf("model request %d, tools: %s", i+1, d), ""
			}
			if note == "" {
				note = fmt.Sprintf("model request %d, tools: %s", i+1, d)
			}
		}
	}
	return "", note
}

// indent is b indented, one value per line, for firstDifference.
func indent(b []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, b, "", " ") != nil {
		return b
	}
	return out.Bytes()
}

// describeDiff says how two JSON files differ: in key order only (the
// same values once every JSON text inside them, such as a tool message's
// content, is decoded too), or where their texts first part.
func describeDiff(got, want []byte) string {
	var g, w any
	if json.Unmarshal(got, &g) == nil && json.Unmarshal(want, &w) == nil && reflect.DeepEqual(decodeInner(g), decodeInner(w)) {
		return "key order only: " + firstDifference(got, want)
	}
	return "content: " + firstDifference(got, want)
}

// decodeInner replaces each string holding a JSON object or list by its
// value, at any depth.
func decodeInner(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = decodeInner(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = decodeInner(x)
		}
		return out
	case string:
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			var inner any
			if json.Unmarshal([]byte(t), &inner) == nil {
				return decodeInner(inner)
			}
		}
	}
	return v
}

// firstDifference shows the line where two texts first differ.
func firstDifference(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("line %d:\n  pipecat %s\n  go      %s", i+1, clip(g), clip(w))
		}
	}
	return "same lines"
}

func sortedKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

func short(v any) string {
	b, _ := json.Marshal(v)
	return clip(string(b))
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
