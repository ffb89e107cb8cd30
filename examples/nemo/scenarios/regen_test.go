package scenarios

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/examples/nemo/nemodata"
	"github.com/voiceeval/schematools/internal/pyjson"
)

var source = flag.String("source", "", "regenerate nemodata/scenarios and the hash manifest from NeMo's scenario_configs.jsonl at this path")

const manifestPath = "../../../internal/conformance/testdata/nemo/scenario_configs.sha256"

// TestRegenerate rewrites the compact form from NeMo's file when -source
// is given:
//
//	go test ./examples/nemo/scenarios -run TestRegenerate -source /path/to/scenario_configs.jsonl
func TestRegenerate(t *testing.T) {
	if *source == "" {
		t.Skip("no -source")
	}
	data, err := os.ReadFile(*source)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	c := newCompactor()
	fixtures := evaFixtures(t)
	var recs, manifest bytes.Buffer
	for i, line := range lines {
		v, err := pyjson.Decode(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		again, err := pyjson.Marshal(v, pyjson.Default)
		if err != nil || !bytes.Equal(again, line) {
			t.Fatalf("line %d is not json.dumps(sort_keys=True) text: %v", i+1, err)
		}
		m := v.(map[string]any)
		name := m["scenario"].(string)
		if err := checkReserved(m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := useEvaFixture(m, fixtures); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, err := c.compact(m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w.(map[string]any)["scenario"] = name // the loader's index reads it as is
		b, err := pyjson.Marshal(w, pyjson.Default)
		if err != nil {
			t.Fatal(err)
		}
		recs.Write(b)
		recs.WriteByte('\n')
		sum := sha256.Sum256(line)
		fmt.Fprintf(&manifest, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	write := func(path string, b []byte) {
		t.Helper()
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := "../nemodata/scenarios"
	write(filepath.Join(dir, "scenarios.jsonl"), recs.Bytes())
	write(filepath.Join(dir, "lines.jsonl"), jsonStrings(t, c.lines))
	write(filepath.Join(dir, "texts.jsonl"), jsonStrings(t, c.texts))
	write(manifestPath, manifest.Bytes())
}

func jsonStrings(t *testing.T, ss []string) []byte {
	var b []byte
	for _, s := range ss {
		var err error
		if b, err = pyjson.AppendString(b, s); err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
	}
	return b
}

// evaFixtures maps the canonical text of each eva_airline fixture DB
// nemodata ships to its path.
func evaFixtures(t *testing.T) map[string]string {
	paths, err := fs.Glob(nemodata.FS, "eva_airline/*.json")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range paths {
		data, err := fs.ReadFile(nemodata.FS, p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := pyjson.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, err := pyjson.Marshal(v, pyjson.Default)
		if err != nil {
			t.Fatal(err)
		}
		out[string(b)] = p
	}
	return out
}

// useEvaFixture replaces an eva scenario's inline agent DB by a reference
// to the fixture holding the same JSON value; every eva scenario must
// have one.
func useEvaFixture(m map[string]any, fixtures map[string]string) error {
	if !strings.HasPrefix(m["scenario"].(string), "eva_airline__") {
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
