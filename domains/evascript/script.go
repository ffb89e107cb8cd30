package evascript

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/tool"
)

// EndTool is the eva agent's end tool, which the script calls last.
const EndTool = "EndConversationTool"

// Greeting is the text of a padding response.
const Greeting = "Thank you for calling SkyWay Airlines. How can I help you today?"

// ErrNoPath is returned for a scenario with no gold path.
var ErrNoPath = errors.New("evascript: no gold path")

//go:embed goldpaths.jsonl
var goldPaths []byte

// Path is one scenario's gold path.
type Path struct {
	// ScenarioID is the eva id (1.1.3).
	ScenarioID string `json:"scenario_id"`
	// Calls are the write calls, in order; empty when the expected DB is
	// the fixture's.
	Calls []PathCall `json:"calls"`
}

// PathCall is one call of a gold path.
type PathCall struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

var (
	loadOnce sync.Once
	paths    map[string]Path
	order    []string
	loadErr  error
)

// parsePaths reads a gold-path file: one Path per line.
func parsePaths(b []byte) (map[string]Path, []string, error) {
	out := map[string]Path{}
	var ids []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var p Path
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, nil, fmt.Errorf("evascript: gold paths line %d: %w", n, err)
		}
		if p.ScenarioID == "" {
			return nil, nil, fmt.Errorf("evascript: gold paths line %d: no scenario_id", n)
		}
		if _, dup := out[p.ScenarioID]; dup {
			return nil, nil, fmt.Errorf("evascript: gold paths line %d: %s twice", n, p.ScenarioID)
		}
		for i, c := range p.Calls {
			if c.Tool == "" || !json.Valid(c.Arguments) || !bytes.HasPrefix(bytes.TrimSpace(c.Arguments), []byte("{")) {
				return nil, nil, fmt.Errorf("evascript: gold paths line %d: call %d needs a tool and an arguments object", n, i)
			}
		}
		out[p.ScenarioID] = p
		ids = append(ids, p.ScenarioID)
	}
	return out, ids, sc.Err()
}

func load() (map[string]Path, []string, error) {
	loadOnce.Do(func() { paths, order, loadErr = parsePaths(goldPaths) })
	return paths, order, loadErr
}

// ID returns the eva id of a scenario name (eva_airline__1_1_3 → 1.1.3);
// an id is returned as it is.
func ID(name string) string {
	if rest, ok := strings.CutPrefix(name, "eva_airline__"); ok {
		return strings.ReplaceAll(rest, "_", ".")
	}
	return name
}

// IDs returns the ids of the scenarios with a gold path, in file order.
func IDs() ([]string, error) {
	_, ids, err := load()
	return slices.Clone(ids), err
}

// Gold returns the gold calls of a scenario (by name or id).
func Gold(name string) ([]tool.ModelCall, error) {
	ps, _, err := load()
	if err != nil {
		return nil, err
	}
	p, ok := ps[ID(name)]
	if !ok {
		return nil, fmt.Errorf("%w for eva_airline scenario %q", ErrNoPath, name)
	}
	calls := make([]tool.ModelCall, len(p.Calls))
	for i, c := range p.Calls {
		calls[i] = tool.ModelCall{Name: c.Tool, Arguments: string(c.Arguments)}
	}
	return calls, nil
}

// Script returns the stand-in's turns that play a scenario's gold path.
func Script(name string) ([]agenttest.Turn, error) {
	calls, err := Gold(name)
	if err != nil {
		return nil, err
	}
	turns := agenttest.GoldTurns(calls, EndTool)
	for len(turns) < tau2script.MinResponses {
		turns = append([]agenttest.Turn{{Text: Greeting}}, turns...)
	}
	for i := range turns {
		u := tau2script.Usage(i)
		turns[i].Usage = &u
	}
	return turns, nil
}
