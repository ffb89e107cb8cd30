package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// nemoVerdictKeys are the metrics.json keys every line of
// testdata/nemo_verdicts.jsonl must settle, present or absent.
var nemoVerdictKeys = []string{
	"is_successful", "is_task_successful", "is_action_match", "db_state_match",
	"db_state_assertion_pass_rate", "db_state_assertion_verdicts", "clean_exit",
	"success_breakdown", "insufficient_agent_turns", "stop_reason",
}

// nemoVerdictLine is one line of testdata/nemo_verdicts.jsonl: what NeMo's
// run_dynamic_evaluation (at 1a83139, driven by scripts/nemo-rescore on the
// golden run's pulled data) wrote into one scenario's metrics.json.
type nemoVerdictLine struct {
	Scenario string                     `json:"scenario"`
	Verdicts map[string]json.RawMessage `json:"verdicts"`
	Absent   []string                   `json:"absent"`
}

func decodeNumbers(t *testing.T, what string, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// TestNemoVerdicts: the golden run's metrics.json verdicts equal those NeMo's
// own runner computed from the same artifacts (testdata/nemo_verdicts.jsonl,
// written by scripts/nemo-rescore/rescore.py --jsonl; see testdata/NOTICE).
// Every scenario of the golden run has a line, and every line settles each
// of nemoVerdictKeys.
func TestNemoVerdicts(t *testing.T) {
	f, err := os.Open(filepath.Join(testdataDir, "nemo_verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []nemoVerdictLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l nemoVerdictLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("nemo_verdicts.jsonl line %d: %v", len(lines)+1, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatal("nemo_verdicts.jsonl holds no line")
	}

	runDir := filepath.Join(testdataDir, "golden", "run")
	var want []string
	entries, err := os.ReadDir(runDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(runDir, e.Name(), fileMetrics)); e.IsDir() && err == nil {
			want = append(want, e.Name())
		}
	}
	var got []string
	for _, l := range lines {
		got = append(got, l.Scenario)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("nemo_verdicts.jsonl has scenarios %q, the golden run %q (re-run scripts/nemo-rescore)", got, want)
	}

	for _, l := range lines {
		t.Run(l.Scenario, func(t *testing.T) {
			for _, k := range nemoVerdictKeys {
				if _, ok := l.Verdicts[k]; !ok && !slices.Contains(l.Absent, k) {
					t.Errorf("the vector line settles no %s", k)
				}
			}
			b, err := os.ReadFile(filepath.Join(runDir, l.Scenario, fileMetrics))
			if err != nil {
				t.Fatal(err)
			}
			m, ok := decodeNumbers(t, fileMetrics, b).(map[string]any)
			if !ok {
				t.Fatalf("%s is not an object", fileMetrics)
			}
			for k, raw := range l.Verdicts {
				nemo := decodeNumbers(t, "nemo_verdicts.jsonl "+k, raw)
				ours, ok := m[k]
				if !ok {
					t.Errorf("%s: absent, NeMo wrote %s", k, raw)
				} else if !reflect.DeepEqual(ours, nemo) {
					t.Errorf("%s: %v, NeMo wrote %s", k, ours, raw)
				}
			}
			for _, k := range l.Absent {
				if v, ok := m[k]; ok {
					t.Errorf("%s: %v, NeMo wrote none", k, v)
				}
			}
		})
	}
}
