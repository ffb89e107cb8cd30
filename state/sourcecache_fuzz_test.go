package state_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/voiceeval/schematools/state"
)

// FuzzSourceCacheMatchesLoadDB: whatever the path, SourceCache.Load
// loads what LoadDB loads or fails with LoadDB's very error — the first
// time and on reuse (the cache lives across inputs).
func FuzzSourceCacheMatchesLoadDB(f *testing.F) {
	outside := f.TempDir()
	root := filepath.Join(f.TempDir(), "root")
	mustWrite := func(dir, p, content string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	mustWrite(outside, "secret.json", `{"secret": true}`)
	mustWrite(outside, "dir/x.json", `{}`)
	for p, content := range map[string]string{
		"db.json":           `{"from": "file"}`,
		"db/shard.json":     `{"from": "dir"}`,
		"shards/a.json":     `{"a": 1}`,
		"shards/b.json":     `[1, 2.0]`,
		"shards/c.txt":      `ignored`,
		"bad.json":          `{"a": `,
		"list.json":         `[1]`,
		"inner/ok.json":     `{"ok": true}`,
		"inner/deep/x.json": `{"x": null}`,
		"escape/a.json":     `{}`,
	} {
		mustWrite(root, p, content)
	}
	for link, target := range map[string]string{
		"linked.json":   filepath.Join(outside, "secret.json"),
		"linkeddir":     filepath.Join(outside, "dir"),
		"escape/b.json": filepath.Join(outside, "secret.json"),
		"inside.json":   "inner/ok.json",
		"dangling.json": "nowhere.json",
		"loop.json":     "loop.json",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			f.Fatal(err)
		}
	}
	for _, rel := range []string{"db", "db.json", "db/", "shards", "./shards/", "inner", "inner/deep", "bad", "list",
		"inside", "linked", "linkeddir", "escape", "dangling", "loop", "missing", "../x", "inner/../../x", "/etc/passwd",
		"", ".", "..", "inner/../db", "db\x00", `db\shard`, "shards/a"} {
		f.Add(rel)
	}
	var cache state.SourceCache
	f.Fuzz(func(t *testing.T, rel string) {
		want, wantErr := state.LoadDB(root, rel)
		src, err := cache.Load(root, rel)
		if wantErr != nil {
			if err == nil || err.Error() != wantErr.Error() || src != nil {
				t.Fatalf("Load(%q) = %v, %v; LoadDB's error is %v", rel, src, err, wantErr)
			}
			return
		}
		if err != nil || src == nil {
			t.Fatalf("Load(%q) failed: %v; LoadDB loads it", rel, err)
		}
		st := state.New()
		st.Share(src)
		if got := st.Snapshot(); !reflect.DeepEqual(got, want) {
			t.Fatalf("Load(%q) = %v; LoadDB loads %v", rel, got, want)
		}
	})
}
