package tau2data_test

import (
	"bytes"
	"io/fs"
	"os"
	"testing"

	"github.com/voiceeval/schematools/domains/tau2/tau2data"
)

// The embedded FS holds every data file of the directory, byte for byte,
// and nothing else.
func TestFSIsTheDirectory(t *testing.T) {
	dir := os.DirFS(".")
	want := map[string]bool{}
	for _, root := range []string{"airline", "retail", "telecom", tau2data.SchemaFile} {
		err := fs.WalkDir(dir, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			want[name] = true
			onDisk, err := fs.ReadFile(dir, name)
			if err != nil {
				return err
			}
			embedded, err := fs.ReadFile(tau2data.FS, name)
			if err != nil {
				t.Errorf("%s is not embedded: %v", name, err)
				return nil
			}
			if !bytes.Equal(onDisk, embedded) {
				t.Errorf("%s: the embedded copy differs from the file", name)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walking %s: %v", root, err)
		}
	}
	got := 0
	err := fs.WalkDir(tau2data.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got++
			if !want[name] {
				t.Errorf("%s is embedded but not in the directory", name)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != 13 || len(want) != 13 {
		t.Errorf("%d files embedded, %d in the directory; want the 12 of airline, retail and telecom and %s", got, len(want), tau2data.SchemaFile)
	}
}

// Schemas holds the schema file alone, the bytes FS holds.
func TestSchemasIsTheSchemaFile(t *testing.T) {
	inFS, err := fs.ReadFile(tau2data.FS, tau2data.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := fs.ReadFile(tau2data.Schemas, tau2data.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inFS, alone) {
		t.Error("Schemas and FS hold different schema files")
	}
	entries, err := fs.ReadDir(tau2data.Schemas, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("Schemas holds %d entries, want the schema file alone", len(entries))
	}
}
