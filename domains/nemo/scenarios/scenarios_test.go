package scenarios

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// readManifest reads the sha256 of each of NeMo's original records.
func readManifest(t *testing.T) (names []string, sums map[string]string) {
	t.Helper()
	f, err := os.Open(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums = map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("bad manifest line %q", sc.Text())
		}
		names = append(names, name)
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names, sums
}

// TestRecordsMatchNeMo rebuilds every record and checks it against the
// sha256 of NeMo's original line: the compact form loses nothing.
func TestRecordsMatchNeMo(t *testing.T) {
	want, sums := readManifest(t)
	got, err := Names()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 477 || len(want) != 477 {
		t.Fatalf("got %d names, manifest %d; want 477", len(got), len(want))
	}
	for i, name := range got {
		if want[i] != name {
			t.Fatalf("name %d: got %q, manifest %q", i, name, want[i])
		}
		rec, err := Record(name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(rec)
		if hex.EncodeToString(sum[:]) != sums[name] {
			t.Errorf("%s: rebuilt record's sha256 differs from NeMo's", name)
		}
	}
}

// TestEvaDBsAreTheFixtures checks that every eva_airline scenario's inline
// agent DB is, as a JSON value, a fixture nemodata ships — the compact
// form stores the reference only.
func TestEvaDBsAreTheFixtures(t *testing.T) {
	raw, err := fs.ReadFile(nemodata.FS, dataDir+"scenarios.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range bytes.SplitSeq(bytes.TrimSpace(raw), []byte("\n")) {
		var r struct {
			Scenario string `json:"scenario"`
			Init     struct {
				DB map[string]string `json:"db"`
			} `json:"shared_state_init_agent"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.Scenario, "eva_airline__") {
			continue
		}
		n++
		path := r.Init.DB[markFixture]
		s, err := Get(r.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		data, err := fs.ReadFile(nemodata.FS, path)
		if err != nil {
			t.Fatalf("%s: %v", r.Scenario, err)
		}
		f, err := pyjson.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := pyjson.Marshal(f, pyjson.Default)
		b, _ := pyjson.Marshal(s.SharedStateInitAgent["db"], pyjson.Default)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: db differs from %s", r.Scenario, path)
		}
	}
	if n != 50 {
		t.Errorf("%d eva_airline scenarios, want 50", n)
	}
}

func TestDomainCounts(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	domains := map[string]map[string]bool{}
	for _, s := range all {
		counts[s.Prefix()]++
		if domains[s.Prefix()] == nil {
			domains[s.Prefix()] = map[string]bool{}
		}
		domains[s.Prefix()][s.Domain] = true
	}
	want := map[string]int{
		"tau2_airline": 50, "tau2_retail": 114, "tau2_telecom": 114, "tau2_telecom_workflow": 114,
		"eva_airline": 50, "restaurant": 11, "customer_service": 10, "qa": 10, "fastbite": 1,
		"simple_qa_1": 1, "simple_qa_2": 1, "simple_qa_3": 1,
	}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("%s: %d scenarios, want %d", k, counts[k], v)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("prefixes %v", counts)
	}
	if !domains["tau2_telecom_workflow"]["tau2_telecom"] || !domains["restaurant"]["default"] {
		t.Errorf("tool domains %v", domains)
	}
}

// TestTypedAccess checks the typed fields against the record's own files.
func TestTypedAccess(t *testing.T) {
	tests := []struct {
		name        string
		signals     []string
		hasRef      bool
		hasExpected bool
		nInit       bool
		userDBPath  string
	}{
		{"customer_service__account_access", []string{"is_action_match", "clean_exit"}, true, false, false, ""},
		{"eva_airline__1_1_3", []string{"db_state_match", "clean_exit"}, false, true, false, ""},
		{"tau2_telecom__", nil, true, true, true, "tau2_telecom/user_db.json"},
	}
	names, _ := Names()
	for _, tt := range tests {
		name := tt.name
		if strings.HasSuffix(name, "__") {
			for _, n := range names {
				if strings.HasPrefix(n, name) {
					name = n
					break
				}
			}
		}
		t.Run(name, func(t *testing.T) {
			s, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			if tt.signals != nil && strings.Join(s.SuccessSignals, ",") != strings.Join(tt.signals, ",") {
				t.Errorf("signals %v", s.SuccessSignals)
			}
			if strings.Join(s.Metadata.SuccessSignals, ",") != strings.Join(s.SuccessSignals, ",") || s.Metadata.Name != s.Name ||
				s.Metadata.Domain != s.Domain || s.Metadata.MaxDuration != s.MaxDuration {
				t.Errorf("metadata %+v disagrees with the record", s.Metadata)
			}
			if (s.ReferenceAnswer != "") != tt.hasRef || (s.Metadata.ExpectedDBHash != "") != tt.hasExpected {
				t.Errorf("reference %v expected hash %q", s.ReferenceAnswer != "", s.Metadata.ExpectedDBHash)
			}
			if (len(s.InitializationActions) > 0) != tt.nInit || len(s.InitializationActions) != len(s.Metadata.InitializationActions) {
				t.Errorf("init actions %d, metadata %d", len(s.InitializationActions), len(s.Metadata.InitializationActions))
			}
			for _, a := range s.InitializationActions {
				if a.Side != "user" && a.Side != "agent" {
					t.Errorf("action side %q", a.Side)
				}
			}
			if tt.userDBPath != "" && s.SharedStateInitUser["db_path"] != tt.userDBPath {
				t.Errorf("user init %v", s.SharedStateInitUser)
			}
			var tools map[string]any
			if err := json.Unmarshal([]byte(s.AgentTools), &tools); err != nil || len(tools) == 0 {
				t.Errorf("agent tools %q: %v", s.AgentTools, err)
			}
			if s.AgentPrompt == "" || s.UserPrompt == "" || s.AgentPrompt != s.Config[FileAgentPrompt] {
				t.Error("prompts")
			}
		})
	}
	if _, err := Get("no_such"); err == nil {
		t.Error("Get of an unknown name: no error")
	}
}
