package scenarios

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// Compacted is the shipped form of NeMo's scenario_configs.jsonl, the
// files domains/nemo/nemodata/scenarios holds, and the hash manifest of
// NeMo's records (internal/conformance/testdata/nemo/scenario_configs.sha256).
type Compacted struct {
	// Scenarios, Lines and Texts are scenarios.jsonl, lines.jsonl and
	// texts.jsonl.
	Scenarios, Lines, Texts []byte
	// Manifest has one "<sha256>  <name>" line per record, in order.
	Manifest []byte
}

// Regenerate builds the shipped form from the text of NeMo's
// scenario_configs.jsonl (one json.dumps(sort_keys=True) record per
// line): texts and lines pooled, each eva_airline scenario's inline DB
// replaced by a reference to the nemodata fixture with the same JSON
// value. Loading the result gives back every record byte for byte
// (Record); a record that could not be given back is an error.
// domains/nemo/scenarios/regenerate writes the files.
func Regenerate(source []byte) (*Compacted, error) {
	lines := bytes.Split(bytes.TrimSuffix(source, []byte("\n")), []byte("\n"))
	c := newCompactor()
	fixtures, err := evaFixtures()
	if err != nil {
		return nil, err
	}
	out := &Compacted{}
	var recs, manifest bytes.Buffer
	for i, line := range lines {
		v, err := pyjson.Decode(line)
		if err != nil {
			return nil, fmt.Errorf("scenarios: line %d: %w", i+1, err)
		}
		again, err := pyjson.Marshal(v, pyjson.Default)
		if err != nil || !bytes.Equal(again, line) {
			return nil, fmt.Errorf("scenarios: line %d is not json.dumps(sort_keys=True) text (%v)", i+1, err)
		}
		m, ok := v.(map[string]any)
		name, _ := m["scenario"].(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("scenarios: line %d has no scenario name", i+1)
		}
		if err := checkReserved(m); err != nil {
			return nil, fmt.Errorf("scenarios: %s: %w", name, err)
		}
		if err := useEvaFixture(name, m, fixtures); err != nil {
			return nil, fmt.Errorf("scenarios: %s: %w", name, err)
		}
		w, err := c.compact(m)
		if err != nil {
			return nil, fmt.Errorf("scenarios: %s: %w", name, err)
		}
		w.(map[string]any)["scenario"] = name // the loader's index reads it as is
		b, err := pyjson.Marshal(w, pyjson.Default)
		if err != nil {
			return nil, err
		}
		recs.Write(b)
		recs.WriteByte('\n')
		sum := sha256.Sum256(line)
		fmt.Fprintf(&manifest, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	out.Scenarios, out.Manifest = recs.Bytes(), manifest.Bytes()
	if out.Lines, err = jsonStrings(c.lines); err != nil {
		return nil, err
	}
	if out.Texts, err = jsonStrings(c.texts); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonStrings writes one JSON string per line.
func jsonStrings(ss []string) ([]byte, error) {
	var b []byte
	for _, s := range ss {
		var err error
		if b, err = pyjson.AppendString(b, s); err != nil {
			return nil, err
		}
		b = append(b, '\n')
	}
	return b, nil
}

// evaFixtures maps the canonical text of each eva_airline fixture DB
// nemodata ships to its path.
func evaFixtures() (map[string]string, error) {
	paths, err := fs.Glob(nemodata.FS, "eva_airline/*.json")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		data, err := fs.ReadFile(nemodata.FS, p)
		if err != nil {
			return nil, err
		}
		v, err := pyjson.Decode(data)
		if err != nil {
			return nil, fmt.Errorf("scenarios: %s: %w", p, err)
		}
		b, err := pyjson.Marshal(v, pyjson.Default)
		if err != nil {
			return nil, err
		}
		out[string(b)] = p
	}
	return out, nil
}

// useEvaFixture replaces an eva scenario's inline agent DB by a reference
// to the fixture holding the same JSON value; every eva scenario must
// have one.
func useEvaFixture(name string, m map[string]any, fixtures map[string]string) error {
	if !strings.HasPrefix(name, "eva_airline__") {
		return nil
	}
	init, _ := m["shared_state_init_agent"].(map[string]any)
	db, ok := init["db"]
	if !ok {
		return fmt.Errorf("no inline db")
	}
	b, err := pyjson.Marshal(db, pyjson.Default)
	if err != nil {
		return err
	}
	path, ok := fixtures[string(b)]
	if !ok {
		return fmt.Errorf("inline db equals no shipped eva_airline fixture")
	}
	init["db"] = map[string]any{markFixture: path}
	return nil
}
