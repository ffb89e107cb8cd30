package scenarios

import (
	"bytes"
	"io/fs"
	"os"
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
)

// Regenerating from the records the shipped form gives back (NeMo's own
// lines, by the manifest's hashes) yields the shipped files and manifest
// byte for byte: the compaction is a fixed point of its own output.
const manifestPath = "../../../internal/conformance/testdata/nemo/scenario_configs.sha256"

func TestRegenerateGivesTheShippedFiles(t *testing.T) {
	names, err := Names()
	if err != nil {
		t.Fatal(err)
	}
	var source bytes.Buffer
	for _, n := range names {
		rec, err := Record(n)
		if err != nil {
			t.Fatal(err)
		}
		source.Write(rec)
		source.WriteByte('\n')
	}
	c, err := Regenerate(source.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"scenarios.jsonl": c.Scenarios, "lines.jsonl": c.Lines, "texts.jsonl": c.Texts} {
		want, err := fs.ReadFile(nemodata.FS, "scenarios/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the shipped file (%d bytes, shipped %d)", name, len(got), len(want))
		}
	}
	want, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c.Manifest, want) {
		t.Error("the manifest differs from the shipped one")
	}
}

func TestRegenerateRefuses(t *testing.T) {
	for _, in := range []string{
		"{",
		`{"b": 1, "a": 2}`, // not sort_keys text
		`{"scenario": ""}`,
		`{"scenario": "eva_airline__9_9_9", "shared_state_init_agent": {}}`,
	} {
		if _, err := Regenerate([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
