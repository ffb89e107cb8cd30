package state_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
)

// writeFiles creates files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(content), 0o644))
	}
}

func TestLoadDBLayouts(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"single/db.json":           `{"flights": {"F1": {"price": 100}}, "users": {"u1": {"id": 12345678901234567890}}}`,
		"sharded/db/flights.json":  `{"F1": {"price": 100}}`,
		"sharded/db/users.json":    `{"u1": {"id": 12345678901234567890}}`,
		"sharded/db/notes.txt":     `ignored`,
		"sharded/db/nested/x.json": `{"ignored": true}`,
	})

	single, err := state.LoadDB(root, "single/db.json")
	require.NoError(t, err)
	sharded, err := state.LoadDB(root, "sharded/db")
	require.NoError(t, err)
	assert.Equal(t, single, sharded, "both layouts give the same DB")

	again, err := state.LoadDB(root, "single/db")
	require.NoError(t, err)
	assert.Equal(t, single, again, "the .json suffix is optional")

	id := single["users"].(map[string]any)["u1"].(map[string]any)["id"]
	assert.Equal(t, json.Number("12345678901234567890"), id, "big integers stay exact")
}

func TestLoadDBPrefersTheFile(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"db.json":        `{"from": "file"}`,
		"db/shard.json":  `{"from": "dir"}`,
		"only/one.json":  `[1, 2.0]`,
		"float/db.json":  `{"a": 1.0, "b": 1, "c": 1e2}`,
		"shardroot.json": `{}`,
	})
	db, err := state.LoadDB(root, "db")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"from": "file"}, db)

	db, err = state.LoadDB(root, "only")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"one": []any{json.Number("1"), json.Number("2.0")}}, db)

	db, err = state.LoadDB(root, "float/db")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": json.Number("1.0"), "b": json.Number("1"), "c": json.Number("1e2")}, db)

	db, err = state.LoadDB(filepath.Join(root, "only"), "")
	require.NoError(t, err, "an empty path loads the root as a sharded DB")
	assert.Contains(t, db, "one")
}

func TestLoadDBErrors(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.json": `{"secret": true}`, "dir/x.json": `{}`})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"bad.json":      `{"a": `,
		"trailing.json": `{"a": 1} {"b": 2}`,
		"list.json":     `[1, 2]`,
		"inner/ok.json": `{"ok": true}`,
		"shards/a.json": `{"a": 1}`,
	})
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "linked.json")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, "linkeddir")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "shards", "b.json")))
	require.NoError(t, os.Symlink("inner/ok.json", filepath.Join(root, "inside.json")))

	tests := []struct {
		rel  string
		want error
	}{
		{"../x", state.ErrPathEscape},
		{"inner/../../x", state.ErrPathEscape},
		{filepath.Join(outside, "secret"), state.ErrPathEscape},
		{"/etc/passwd", state.ErrPathEscape},
		{"linked", state.ErrPathEscape},
		{"linkeddir", state.ErrPathEscape},
		{"shards", state.ErrPathEscape},
		{"missing", state.ErrDBNotFound},
		{"bad", state.ErrInvalidDB},
		{"trailing", state.ErrInvalidDB},
		{"list", state.ErrInvalidDB},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			db, err := state.LoadDB(root, tt.rel)
			assert.ErrorIs(t, err, tt.want)
			assert.Nil(t, db)
		})
	}

	db, err := state.LoadDB(root, "inside")
	require.NoError(t, err, "a link that stays inside the root is fine")
	assert.Equal(t, map[string]any{"ok": true}, db)

	_, err = state.LoadDB(filepath.Join(root, "no-such-root"), "db")
	assert.Error(t, err)
}

func TestLoadDBTau2Airline(t *testing.T) {
	tau2 := conformance.Tau2Dir(t)
	db, err := state.LoadDB(tau2, "airline/db")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"flights", "reservations", "users"}, keys(db))
	assert.NotEmpty(t, db["users"])

	retail, err := state.LoadDB(tau2, "retail/db.json")
	require.NoError(t, err)
	assert.Contains(t, retail, "orders")

	// The embedded copy loads to the same DBs.
	embedded, err := state.LoadDBFS(tau2data.FS, "airline/db")
	require.NoError(t, err)
	assert.Equal(t, db, embedded)
	embedded, err = state.LoadDBFS(tau2data.FS, "retail/db.json")
	require.NoError(t, err)
	assert.Equal(t, retail, embedded)
}

func TestLoadDBFS(t *testing.T) {
	files := map[string]string{
		"single/db.json":           `{"flights": {"F1": {"price": 100}}, "users": {"u1": {"id": 12345678901234567890}}}`,
		"sharded/db/flights.json":  `{"F1": {"price": 100}}`,
		"sharded/db/users.json":    `{"u1": {"id": 12345678901234567890}}`,
		"sharded/db/notes.txt":     `ignored`,
		"sharded/db/nested/x.json": `{"ignored": true}`,
		"db.json":                  `{"from": "file"}`,
		"db/shard.json":            `{"from": "dir"}`,
		"list.json":                `[1, 2.0]`,
		"bad.json":                 `{"a": `,
		"trailing.json":            `{} {}`,
	}
	root := t.TempDir()
	writeFiles(t, root, files)
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}

	// What loads from a directory loads the same from an fs.FS.
	for _, rel := range []string{"single/db.json", "single/db", "sharded/db", "db", "db.json", "db/", "./single/../db", "sharded"} {
		want, err := state.LoadDB(root, rel)
		require.NoError(t, err, rel)
		got, err := state.LoadDBFS(fsys, rel)
		require.NoError(t, err, rel)
		assert.Equal(t, want, got, rel)
	}
	dir, err := state.LoadDBFS(fsys, "db/")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"shard": map[string]any{"from": "dir"}}, dir, "a trailing slash asks for the shards")
	atRoot, err := state.LoadDBFS(fstest.MapFS{"a.json": {Data: []byte(`{"x": 1}`)}, "b.txt": {}}, "")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": map[string]any{"x": json.Number("1")}}, atRoot, "an empty rel is the root, as shards")
	sharded, err := state.LoadDBFS(fsys, "sharded/db")
	require.NoError(t, err)
	id := sharded["users"].(map[string]any)["u1"].(map[string]any)["id"]
	assert.Equal(t, json.Number("12345678901234567890"), id, "big integers stay exact")

	for _, tt := range []struct {
		rel  string
		want error
	}{
		{"../db", state.ErrPathEscape},
		{"/db", state.ErrPathEscape},
		{"single/../../db", state.ErrPathEscape},
		{"missing", state.ErrDBNotFound},
		{"list", state.ErrInvalidDB},
		{"bad", state.ErrInvalidDB},
		{"trailing", state.ErrInvalidDB},
	} {
		db, err := state.LoadDBFS(fsys, tt.rel)
		assert.ErrorIs(t, err, tt.want, tt.rel)
		assert.Nil(t, db, tt.rel)
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A chain of links whose end dangles outside the root is still an escape.
func TestLoadDBLinkChainEscape(t *testing.T) {
	outside := t.TempDir()
	root := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(outside, "missing.json"), filepath.Join(root, "dang.json")))
	require.NoError(t, os.Symlink("dang.json", filepath.Join(root, "chain.json")))
	_, err := state.LoadDB(root, "chain")
	assert.ErrorIs(t, err, state.ErrPathEscape)
	_, err = state.LoadDB(root, "dang")
	assert.ErrorIs(t, err, state.ErrPathEscape)

	require.NoError(t, os.Symlink("loop_b.json", filepath.Join(root, "loop_a.json")))
	require.NoError(t, os.Symlink("loop_a.json", filepath.Join(root, "loop_b.json")))
	_, err = state.LoadDB(root, "loop_a")
	assert.Error(t, err)
}

// Shards are parsed side by side; the error is the one of the first
// failing file in name order, whichever failed first, and the shards that
// parse give the same DB as one by one.
func TestLoadDBShardsInParallel(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"bad/a.json": `{"ok": 1}`, "bad/b.json": `{"b": `, "bad/c.json": `[1, 2`, "bad/big.json": `{"x": [` + strings.Repeat(`1,`, 100000) + `1]}`,
	}
	want := map[string]any{}
	for i := range 12 {
		name := fmt.Sprintf("t%02d", i)
		files["good/"+name+".json"] = fmt.Sprintf(`{"%s": {"n": %d}}`, name, i)
		want[name] = map[string]any{name: map[string]any{"n": json.Number(fmt.Sprint(i))}}
	}
	writeFiles(t, root, files)
	for range 20 {
		_, err := state.LoadDB(root, "bad")
		require.ErrorIs(t, err, state.ErrInvalidDB)
		assert.ErrorContains(t, err, `"bad/b.json"`)
	}
	db, err := state.LoadDB(root, "good")
	require.NoError(t, err)
	assert.Equal(t, want, db)
}
