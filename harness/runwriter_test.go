package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// writeFixture writes scenarios of the fixed run into w.
func writeFixture(t *testing.T, w *runWriter, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := w.WriteScenario(fixtureOutput(t, w, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// fullRun writes the fixed run, uninterrupted, under the current
// directory's eval_results and returns its directory.
func fullRun(t *testing.T) string {
	t.Helper()
	w, err := newRunWriter("eval_results", fixtureTimestamp, fixtureQueue)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	writeFixture(t, w, fixtureQueue...)
	if err := w.Finish(finishOptions{MinAgentTurns: defaultMinAgentTurns}); err != nil {
		t.Fatal(err)
	}
	return w.Dir()
}

// tree returns every file under dir by relative path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(testdataDir, "golden", "run", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (go test -update rewrites):\n%s", path, got)
	}
}

var testdataDir = func() string { d, _ := filepath.Abs("testdata"); return d }()

// TestRunLayout writes the fixed run and checks NeMo's layout file by file
// against the goldens (the run-level files, a scenario's conversation log,
// final DB hash and segLST) and the scenario_config files against the
// shipped record.
func TestRunLayout(t *testing.T) {
	t.Chdir(t.TempDir())
	dir := fullRun(t)
	if want := filepath.Join("eval_results", "eval_"+fixtureTimestamp); dir != want {
		t.Fatalf("run directory %q, want %q", dir, want)
	}
	files := tree(t, dir)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	golden(t, "files.txt", []byte(strings.Join(names, "\n")+"\n"))
	for _, f := range []string{fileAllMetrics, fileAllSummary, fileAllLatencies, fileResults, fileReport} {
		golden(t, f, files[f])
	}
	eva := "eva_airline__1_1_3/"
	for _, f := range []string{fileConversationLog, fileSegLST, fileFinalScenarioDBHash, fileDBDiff, fileMetrics, fileFinalAgentResponse, dirBotLogsAgent + "/" + fileLLMContext} {
		golden(t, eva+f, files[eva+f])
	}
	golden(t, "eva_airline__1_1_4/"+fileConversationLog, files["eva_airline__1_1_4/"+fileConversationLog])
	// What scripts/nemo-rescore reads of each scenario: the verdicts, the
	// prediction, the pulled summaries and the judge's answer.
	for _, n := range fixtureQueue {
		for _, f := range []string{fileMetrics, fileFinalAgentResponse, filePulledSummary} {
			golden(t, n+"/"+f, files[n+"/"+f])
		}
	}
	for _, f := range []string{fileJudgeResult, dirBotLogsAgent + "/" + fileLLMContext, dirBotLogsUser + "/" + fileLLMContext} {
		golden(t, "tau2_retail__103/"+f, files["tau2_retail__103/"+f])
	}
	golden(t, "tau2_retail__103/"+fileFinalScenarioDBHash, files["tau2_retail__103/"+fileFinalScenarioDBHash])
	for _, n := range fixtureQueue {
		sh, _ := shipped(t, n)
		for file, text := range sh.Config {
			if got := files[n+"/"+dirScenarioConfig+"/"+file]; string(got) != text {
				t.Errorf("%s/%s/%s differs from the shipped record", n, dirScenarioConfig, file)
			}
		}
		for _, f := range []string{fileMetrics, fileFinalAgentResponse, filePulledSummary, dirBotLogsAgent + "/" + fileLLMContext, dirBotLogsUser + "/" + fileLLMContext} {
			if files[n+"/"+f] == nil {
				t.Errorf("%s/%s missing", n, f)
			}
		}
	}
	if files["tau2_retail__103/"+fileJudgeResult] == nil || files["customer_service__account_access/"+fileJudgeResult] != nil {
		t.Error("judge_result.json should be written exactly where a judge ran")
	}
	if files["customer_service__account_access/"+fileFinalScenarioDBHash] != nil {
		t.Error("final_scenario_db_hash.txt written without a hash")
	}
}

// TestConversationLogEmpty: without segments the bridge writes only the
// header.
func TestConversationLogEmpty(t *testing.T) {
	got := string(conversationLog("2026-01-01T00:00:00", nil, "x", "[EXIT]"))
	want := "RTVI Evaluation Bridge - Conversation Log\n" + strings.Repeat("=", 80) + "\nStart Time: 2026-01-01T00:00:00\n" + strings.Repeat("=", 80) + "\n\n"
	if got != want {
		t.Errorf("got %q", got)
	}
}

func TestWriteScenarioRefuses(t *testing.T) {
	w, err := newRunWriter(t.TempDir(), fixtureTimestamp, fixtureQueue[:1])
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	out := fixtureOutput(t, w, "eva_airline__1_1_3")
	if err := w.WriteScenario(out); err == nil {
		t.Error("a scenario not in the queue was written")
	}
	if err := w.WriteScenario(nil); err == nil {
		t.Error("nil output accepted")
	}
	for _, q := range [][]string{{"a", "a"}, {"../x"}, {""}, {"a/b"}, {".tmp-x"}} {
		if _, err := newRunWriter(t.TempDir(), "t", q); err == nil {
			t.Errorf("queue %q accepted", q)
		}
	}
	entries, _ := os.ReadDir(w.Dir())
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("left directory %s", e.Name())
		}
	}
}

// TestPulledSummaryJSON: pulled_summary.json holds each side's
// get_scenario_summary answer as pulled (null when none came, actions
// null or [] as they came, db only when sent) and the <final_response>
// texts, in json.dump(indent=2) form.
func TestPulledSummaryJSON(t *testing.T) {
	h := "abc"
	for _, c := range []struct {
		name string
		run  Run
		want string
	}{
		{"nothing pulled", Run{}, `{
  "agent": null,
  "user": null,
  "final_responses": []
}`},
		{"push path", Run{FinalResponses: []string{`{"a": 1}`, "caf\u00e9"}, User: Side{Summary: &Summary{}}}, `{
  "agent": null,
  "user": {
    "actions": null,
    "db_hash": null
  },
  "final_responses": [
    "{\"a\": 1}",
    "caf\u00e9"
  ]
}`},
		{"pull with db", Run{Agent: Side{Summary: &Summary{Actions: []any{map[string]any{"name": "x", "arguments": map[string]any{"n": json.Number("1.50")}}}, DBHash: &h, DB: map[string]any{"t": []any{true}}}}}, `{
  "agent": {
    "actions": [
      {
        "arguments": {
          "n": 1.5
        },
        "name": "x"
      }
    ],
    "db_hash": "abc",
    "db": {
      "t": [
        true
      ]
    }
  },
  "user": null,
  "final_responses": []
}`},
		{"empty actions", Run{Agent: Side{Summary: &Summary{Actions: []any{}}}}, `{
  "agent": {
    "actions": [],
    "db_hash": null
  },
  "user": null,
  "final_responses": []
}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := pulledSummaryJSON(&c.run)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// A lone surrogate a bot sent (in its DB hash, its turns) is written as
// \udXXX in the text files and report.html, escaped in the JSON files:
// every file is valid UTF-8. Failed before: final_scenario_db_hash.txt
// and report.html held the raw WTF-8 bytes.
func TestLoneSurrogatesAreEscaped(t *testing.T) {
	t.Chdir(t.TempDir())
	w, err := newRunWriter("eval_results", fixtureTimestamp, fixtureQueue[:1])
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	out := fixtureOutput(t, w, fixtureQueue[0])
	lone, err := pyjson.Decode([]byte(`"\ud800x\udfff"`))
	if err != nil {
		t.Fatal(err)
	}
	s := lone.(string)
	out.Run.Agent.Summary = &Summary{DBHash: &s, Actions: []any{}}
	out.Run.Segments[0].Text = s
	out.Run.Turns[0].Text = s
	res, err := Score(t.Context(), out.Run, opts())
	if err != nil {
		t.Fatal(err)
	}
	out.Result = res
	if err := w.WriteScenario(out); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(finishOptions{MinAgentTurns: defaultMinAgentTurns}); err != nil {
		t.Fatal(err)
	}
	files := tree(t, w.Dir())
	for name, b := range files {
		if !utf8.Valid(b) {
			t.Errorf("%s is not valid UTF-8", name)
		}
	}
	dir := fixtureQueue[0] + "/"
	if got := string(files[dir+fileFinalScenarioDBHash]); got != "db_hash: \\ud800x\\udfff\n" {
		t.Errorf("final_scenario_db_hash.txt = %q", got)
	}
	if !strings.Contains(string(files[dir+fileConversationLog]), `\ud800x\udfff`) {
		t.Errorf("conversation_log.txt lacks the escaped text")
	}
	if !strings.Contains(string(files[fileReport]), `\ud800x\udfff`) {
		t.Errorf("report.html lacks the escaped text")
	}
	if !strings.Contains(string(files[dir+fileMetrics]), `"\ud800x\udfff"`) {
		t.Errorf("metrics.json lacks the JSON escape")
	}
}
