package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/nemoeval"
)

// nemoVerdict is one line of testdata/nemo_verdicts_*.jsonl: what NeMo's
// own runner wrote into metrics.json for a scenario's pulled data
// (scripts/nemo-rescore), and the verdict keys it left out.
type nemoVerdict struct {
	Scenario string         `json:"scenario"`
	Verdicts map[string]any `json:"verdicts"`
	Absent   []string       `json:"absent"`
}

// requireNemoVerdicts checks each run's metrics.json against NeMo's
// verdicts in file, every line of it: each key NeMo wrote has NeMo's
// value, each it left out is absent. A dated scenario's
// db_state_actual_hash is the day's, and is left aside.
func requireNemoVerdicts(t *testing.T, file string, got map[string]map[string]any) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v nemoVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		m := got[v.Scenario]
		if m == nil {
			t.Errorf("%s: NeMo scored it, this run has no metrics.json", v.Scenario)
			continue
		}
		for k, want := range v.Verdicts {
			if k == "db_state_actual_hash" && nemoeval.IsDated(v.Scenario) {
				continue
			}
			a, _ := json.Marshal(m[k])
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Errorf("%s: %s is %s, NeMo's runner wrote %s", v.Scenario, k, a, b)
			}
		}
		for _, k := range v.Absent {
			if _, ok := m[k]; ok {
				t.Errorf("%s: %s written, NeMo's runner left it out", v.Scenario, k)
			}
		}
		if _, ok := v.Verdicts["is_successful"]; !ok {
			t.Errorf("%s: a vector without is_successful", v.Scenario)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s has no verdicts", file)
	}
	t.Logf("%d scenarios' verdicts equal NeMo's runner's (%s)", n, file)
}
