package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// Names of the scenario_config files (Scenario.save's output).
const (
	FileAgentPrompt     = "agent_prompt.txt"
	FileUserPrompt      = "user_prompt.txt"
	FileAgentTools      = "agent_tools.json"
	FileUserTools       = "user_tools.json"
	FileMetadata        = "metadata.json"
	FileReferenceAnswer = "reference_answer.json"
)

// Action is one initialisation action: the side that replays it ("user"
// or "agent"), the initialisation function and its keyword arguments.
type Action struct {
	Side      string         `json:"side"`
	FuncName  string         `json:"func_name"`
	Arguments map[string]any `json:"arguments"`
}

// Assertion is one DB-state assertion as metadata.json holds it (NeMo's
// db_state_assertions, tau2's env_assertions with env_type renamed side).
type Assertion struct {
	Side        string         `json:"side"`
	FuncName    string         `json:"func_name"`
	Arguments   map[string]any `json:"arguments"`
	AssertValue any            `json:"assert_value"`
	Message     *string        `json:"message"`
}

// Metadata is metadata.json: what Scenario.save writes besides the
// prompts, tools and reference answer.
type Metadata struct {
	Name                 string   `json:"name"`
	Domain               string   `json:"domain"`
	Description          *string  `json:"description"`
	MaxDuration          int      `json:"max_duration"`
	NoiseConfig          any      `json:"noise_config"`
	IgnoreCapitalization bool     `json:"ignore_capitalization"`
	IgnorePunctuation    bool     `json:"ignore_punctuation"`
	CleanText            bool     `json:"clean_text"`
	DisallowExtraItems   bool     `json:"disallow_extra_items"`
	SuccessSignals       []string `json:"success_signals"`
	// DBStateAssertions, NLAssertions and InitializationActions are
	// present only when the scenario has them (tau2 telecom, some retail
	// tasks, telecom).
	DBStateAssertions     []Assertion `json:"db_state_assertions,omitempty"`
	NLAssertions          []string    `json:"nl_assertions,omitempty"`
	InitializationActions []Action    `json:"initialization_actions,omitempty"`
	// ExpectedDBHash is get_dict_hash(expected_scenario_db), empty when
	// the scenario has no expected DB (DB_STATE_MATCH not applicable);
	// ExpectedUserDBHash the same for the user side (telecom).
	ExpectedDBHash     string `json:"expected_db_hash,omitempty"`
	ExpectedUserDBHash string `json:"expected_user_db_hash,omitempty"`
}

// Scenario is one of NeMo's registered scenarios as its runner sets it
// up.
type Scenario struct {
	// Name is the registry name ("tau2_retail__12").
	Name string
	// Domain is the tool domain the bridge sends (tau2_telecom for
	// telecom_workflow, default for restaurant, qa and the like).
	Domain string
	// MaxDuration is the run length in seconds.
	MaxDuration int
	// SuccessSignals are the signals whose strict AND is is_successful.
	SuccessSignals []string
	// Config holds the scenario_config files, by file name, as text.
	Config map[string]string
	// AgentPrompt and UserPrompt are the system prompts of the two bots.
	AgentPrompt, UserPrompt string
	// AgentTools and UserTools are the JSON texts of the {tool: kwargs}
	// maps that update_system_prompt carries ("{}" for none).
	AgentTools, UserTools string
	// ReferenceAnswer is reference_answer.json's text; empty when the
	// scenario has none (ACTION_MATCH is then "N/A").
	ReferenceAnswer string
	// Metadata is metadata.json, parsed.
	Metadata Metadata
	// SharedStateInitAgent and SharedStateInitUser are what
	// setup_shared_state puts in each side's shared_state_init: a db_path,
	// eva_airline's inline db, or nothing.
	SharedStateInitAgent, SharedStateInitUser map[string]any
	// InitializationActions are the actions replayed before the run, each
	// with its side; nil when none.
	InitializationActions []Action
}

// Prefix is the runner's per-domain bucket: the name up to "__", or the
// whole name when it has none.
func (s *Scenario) Prefix() string {
	p, _, _ := strings.Cut(s.Name, "__")
	return p
}

// HasSignal reports whether signal is in s's success_signals.
func (s *Scenario) HasSignal(signal string) bool { return slices.Contains(s.SuccessSignals, signal) }

type index struct {
	st      *store
	names   []string
	compact map[string][]byte
}

const dataDir = "scenarios/"

var load = sync.OnceValues(func() (*index, error) {
	st := &store{fsys: nemodata.FS}
	var err error
	if st.lines, err = readStrings(nemodata.FS, dataDir+"lines.jsonl"); err != nil {
		return nil, err
	}
	if st.texts, err = readStrings(nemodata.FS, dataDir+"texts.jsonl"); err != nil {
		return nil, err
	}
	raw, err := readJSONLines(nemodata.FS, dataDir+"scenarios.jsonl")
	if err != nil {
		return nil, err
	}
	ix := &index{st: st, compact: make(map[string][]byte, len(raw))}
	for i, b := range raw {
		var head struct {
			Scenario string `json:"scenario"`
		}
		if err := json.Unmarshal(b, &head); err != nil || head.Scenario == "" {
			return nil, fmt.Errorf("scenarios.jsonl:%d: no scenario name", i+1)
		}
		ix.names = append(ix.names, head.Scenario)
		ix.compact[head.Scenario] = b
	}
	return ix, nil
})

// Names returns the names of every scenario, sorted.
func Names() ([]string, error) {
	ix, err := load()
	if err != nil {
		return nil, err
	}
	return slices.Clone(ix.names), nil
}

// value rebuilds NeMo's record for name as a JSON tree.
func (ix *index) value(name string) (map[string]any, error) {
	b, ok := ix.compact[name]
	if !ok {
		return nil, fmt.Errorf("scenarios: no scenario %q", name)
	}
	v, err := pyjson.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("scenarios: %s: %w", name, err)
	}
	w, err := ix.st.expand(v)
	if err != nil {
		return nil, fmt.Errorf("scenarios: %s: %w", name, err)
	}
	m, ok := w.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("scenarios: %s: record is not an object", name)
	}
	return m, nil
}

// Record returns NeMo's scenario_configs.jsonl line for name (without its
// newline): json.dumps(record, sort_keys=True), byte for byte.
func Record(name string) ([]byte, error) {
	ix, err := load()
	if err != nil {
		return nil, err
	}
	v, err := ix.value(name)
	if err != nil {
		return nil, err
	}
	return pyjson.Marshal(v, pyjson.Default)
}

// Get returns the scenario called name.
func Get(name string) (*Scenario, error) {
	rec, err := Record(name)
	if err != nil {
		return nil, err
	}
	return parse(rec)
}

// All returns every scenario, in name order.
func All() ([]*Scenario, error) {
	names, err := Names()
	if err != nil {
		return nil, err
	}
	out := make([]*Scenario, 0, len(names))
	for _, n := range names {
		s, err := Get(n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

type record struct {
	Scenario              string            `json:"scenario"`
	Domain                string            `json:"domain"`
	MaxDuration           int               `json:"max_duration"`
	SuccessSignals        []string          `json:"success_signals"`
	ScenarioConfig        map[string]string `json:"scenario_config"`
	SharedStateInitAgent  map[string]any    `json:"shared_state_init_agent"`
	SharedStateInitUser   map[string]any    `json:"shared_state_init_user"`
	InitializationActions []Action          `json:"initialization_actions"`
}

func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func parse(rec []byte) (*Scenario, error) {
	var r record
	if err := decodeNumbers(rec, &r); err != nil {
		return nil, fmt.Errorf("scenarios: %w", err)
	}
	s := &Scenario{
		Name: r.Scenario, Domain: r.Domain, MaxDuration: r.MaxDuration, SuccessSignals: r.SuccessSignals,
		Config: r.ScenarioConfig, AgentPrompt: r.ScenarioConfig[FileAgentPrompt], UserPrompt: r.ScenarioConfig[FileUserPrompt],
		ReferenceAnswer: r.ScenarioConfig[FileReferenceAnswer], SharedStateInitAgent: r.SharedStateInitAgent,
		SharedStateInitUser: r.SharedStateInitUser, InitializationActions: r.InitializationActions,
	}
	for file, dst := range map[string]*string{FileAgentTools: &s.AgentTools, FileUserTools: &s.UserTools} {
		if err := json.Unmarshal([]byte(r.ScenarioConfig[file]), dst); err != nil {
			return nil, fmt.Errorf("scenarios: %s: %s: %w", s.Name, file, err)
		}
	}
	if err := decodeNumbers([]byte(r.ScenarioConfig[FileMetadata]), &s.Metadata); err != nil {
		return nil, fmt.Errorf("scenarios: %s: %s: %w", s.Name, FileMetadata, err)
	}
	return s, nil
}
