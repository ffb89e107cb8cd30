package tau2data_test

import (
	"bytes"
	"io/fs"
	"os"
	"testing"

	"github.com/voiceeval/schematools/examples/tau2/tau2data"
)

// The embedded FS holds every data file of the directory, byte for byte,
// and nothing else.
func TestFSIsTheDirectory(t *testing.T) {
	dir := os.DirFS(".")
	want := map[string]bool{}
	for _, root := range []string{"airline", "retail", "telecom"} {
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
	if got != 12 || len(want) != 12 {
		t.Errorf("%d files embedded, %d in the directory; want the 12 of airline, retail and telecom", got, len(want))
	}
}
