package evascript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
)

var update = flag.Bool("update", false, "regenerate goldpaths.jsonl from the conformance vectors")

// vectorPaths projects eva_airline_gold_paths.jsonl onto Path lines.
func vectorPaths(t *testing.T) ([]byte, int) {
	t.Helper()
	f, err := os.Open(conformance.Path(t, "nemo", "eva_airline_gold_paths.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	seen := map[string]bool{}
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var rec struct {
			ScenarioID string     `json:"scenario_id"`
			Found      bool       `json:"found"`
			Calls      []PathCall `json:"calls"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		n++
		if !rec.Found || seen[rec.ScenarioID] {
			continue
		}
		seen[rec.ScenarioID] = true
		if rec.Calls == nil {
			rec.Calls = []PathCall{}
		}
		b, err := json.Marshal(Path{ScenarioID: rec.ScenarioID, Calls: rec.Calls})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	conformance.RequireRecords(t, n, "nemo", "eva_airline_gold_paths.jsonl")
	return out.Bytes(), n
}

// The embedded paths are the vectors' found gold paths, call for call.
func TestEmbeddedPathsAreTheVectors(t *testing.T) {
	want, _ := vectorPaths(t)
	if *update {
		if err := os.WriteFile("goldpaths.jsonl", want, 0o644); err != nil {
			t.Fatal(err)
		}
		goldPaths = want
	}
	got, gotIDs, err := parsePaths(goldPaths)
	if err != nil {
		t.Fatal(err)
	}
	vec, vecIDs, err := parsePaths(want)
	if err != nil {
		t.Fatal(err)
	}
	// Every embedded path is the vectors' path for its scenario; a larger
	// regenerated vector set may hold more (go test -update embeds them).
	for _, id := range gotIDs {
		v, ok := vec[id]
		if !ok {
			t.Errorf("%s: embedded but not in the vectors", id)
			continue
		}
		a, _ := json.Marshal(got[id])
		b, _ := json.Marshal(v)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: embedded %s\nvectors %s", id, a, b)
		}
	}
	if len(vecIDs) > len(gotIDs) {
		t.Logf("the vectors have %d gold paths, %d embedded: go test -update embeds them", len(vecIDs), len(gotIDs))
	}
	if len(gotIDs) < 1 {
		t.Fatal("no gold path embedded")
	}
}

func TestScript(t *testing.T) {
	ids, err := IDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		calls, err := Gold(id)
		if err != nil {
			t.Fatal(err)
		}
		turns, err := Script("eva_airline__" + string(bytes.ReplaceAll([]byte(id), []byte("."), []byte("_"))))
		if err != nil {
			t.Fatal(err)
		}
		if len(turns) < 3 {
			t.Errorf("%s: %d responses", id, len(turns))
		}
		var played []string
		for _, tr := range turns {
			for _, c := range tr.Calls {
				played = append(played, c.Name+c.Arguments)
			}
			if tr.Usage == nil {
				t.Errorf("%s: a response without usage", id)
			}
		}
		var want []string
		for _, c := range calls {
			want = append(want, c.Name+c.Arguments)
		}
		want = append(want, EndTool+"{}")
		if len(played) != len(want) {
			t.Fatalf("%s: played %v, want %v", id, played, want)
		}
		for i := range want {
			if played[i] != want[i] {
				t.Errorf("%s: call %d %s, want %s", id, i, played[i], want[i])
			}
		}
		if last := turns[len(turns)-1]; last.Text == "" || len(last.Calls) != 0 {
			t.Errorf("%s: last response %+v, want the goodbye text", id, last)
		}
	}
}

func TestNoPath(t *testing.T) {
	for _, name := range []string{"eva_airline__9_9_9", "tau2_retail__0", ""} {
		if _, err := Script(name); err == nil {
			t.Errorf("%q: no error", name)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		`{"calls":[]}`,
		`{"scenario_id":"1","calls":[{"tool":"","arguments":{}}]}`,
		`{"scenario_id":"1","calls":[{"tool":"X","arguments":[1]}]}`,
		"{\"scenario_id\":\"1\",\"calls\":[]}\n{\"scenario_id\":\"1\",\"calls\":[]}",
		`{`,
	} {
		if _, _, err := parsePaths([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
