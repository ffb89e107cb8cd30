package state_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/state"
)

// A SourceCache hands out one Source per DB, whatever the spelling of
// its path, in both layouts.
func TestSourceCacheReusesOneSourcePerDB(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"single/db.json":          `{"flights": {"F1": {"price": 100}}}`,
		"sharded/db/flights.json": `{"F1": {"price": 100}}`,
		"both.json":               `{"from": "file"}`,
		"both/x.json":             `{"from": "dir"}`,
	})
	tests := []struct {
		name      string
		rels      []string // all name the same DB
		want      map[string]any
		otherRoot bool // a second root spelling the same directory
	}{
		{"single file", []string{"single/db", "single/db.json", "./single/db", "single/../single/db"}, map[string]any{"flights": map[string]any{"F1": map[string]any{"price": json.Number("100")}}}, true},
		{"shards", []string{"sharded/db", "sharded/db.json", "sharded/./db"}, map[string]any{"flights": map[string]any{"F1": map[string]any{"price": json.Number("100")}}}, false},
		{"the file wins", []string{"both", "both.json"}, map[string]any{"from": "file"}, false},
		{"the root itself", []string{"", ".", "./"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c state.SourceCache
			first, err := c.Load(root, tt.rels[0])
			require.NoError(t, err)
			for _, rel := range tt.rels {
				src, err := c.Load(root, rel)
				require.NoError(t, err, rel)
				assert.Same(t, first, src, rel)
			}
			if tt.otherRoot {
				src, err := c.Load(root+string(filepath.Separator)+".", tt.rels[0])
				require.NoError(t, err)
				assert.Same(t, first, src, "the root is compared as an absolute path")
			}
			if tt.want != nil {
				assert.Equal(t, tt.want, sharedCopy(t, first))
			}
			want, err := state.LoadSource(root, tt.rels[0])
			require.NoError(t, err)
			assert.Equal(t, sharedCopy(t, want), sharedCopy(t, first), "what LoadSource loads")
		})
	}

	var c state.SourceCache
	a, err := c.Load(root, "single/db")
	require.NoError(t, err)
	b, err := c.Load(root, "sharded/db")
	require.NoError(t, err)
	assert.NotSame(t, a, b, "two DBs are two Sources, even equal ones")
}

// Load refuses and fails exactly as LoadDB does, and caches no failure.
func TestSourceCacheErrorsAreLoadDBs(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.json": `{"secret": true}`, "dir/x.json": `{}`})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"bad.json":        `{"a": `,
		"trailing.json":   `{"a": 1} {"b": 2}`,
		"list.json":       `[1, 2]`,
		"inner/ok.json":   `{"ok": true}`,
		"shards/a.json":   `{"a": 1}`,
		"badshard/a.json": `{"a": 1}`,
		"badshard/b.json": `{`,
	})
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "linked.json")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, "linkeddir")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "shards", "b.json")))
	require.NoError(t, os.Symlink("inner/ok.json", filepath.Join(root, "inside.json")))

	tests := []struct {
		root, rel string
		want      error
	}{
		{root, "../x", state.ErrPathEscape},
		{root, "inner/../../x", state.ErrPathEscape},
		{root, filepath.Join(outside, "secret"), state.ErrPathEscape},
		{root, "/etc/passwd", state.ErrPathEscape},
		{root, "linked", state.ErrPathEscape},
		{root, "linkeddir", state.ErrPathEscape},
		{root, "shards", state.ErrPathEscape},
		{root, "missing", state.ErrDBNotFound},
		{root, "bad", state.ErrInvalidDB},
		{root, "trailing", state.ErrInvalidDB},
		{root, "list", state.ErrInvalidDB},
		{root, "badshard", state.ErrInvalidDB},
		{filepath.Join(root, "no-such-root"), "db", nil},
	}
	var c state.SourceCache
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			_, want := state.LoadDB(tt.root, tt.rel)
			require.Error(t, want)
			for range 2 { // a failure is not cached
				src, err := c.Load(tt.root, tt.rel)
				assert.Nil(t, src)
				if tt.want != nil {
					assert.ErrorIs(t, err, tt.want)
				}
				assert.EqualError(t, err, want.Error(), "LoadDB's very error")
			}
		})
	}

	src, err := c.Load(root, "inside")
	require.NoError(t, err, "a link that stays inside the root is fine")
	assert.Equal(t, map[string]any{"ok": true}, sharedCopy(t, src))

	// A DB fixed after a failed load loads.
	writeFiles(t, root, map[string]string{"bad.json": `{"a": 1}`})
	src, err = c.Load(root, "bad")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": json.Number("1")}, sharedCopy(t, src))
}

// A changed file, shard or set of shards is loaded again; states sharing
// the old Source keep it.
func TestSourceCacheReloadsChangedFiles(t *testing.T) {
	later := time.Now().Add(time.Hour)
	tests := []struct {
		name   string
		files  map[string]string
		rel    string
		change func(t *testing.T, root string)
		want   map[string]any
	}{
		{"a file of another size", map[string]string{"db.json": `{"a": 1}`}, "db",
			func(t *testing.T, root string) { writeFiles(t, root, map[string]string{"db.json": `{"a": 22}`}) },
			map[string]any{"a": json.Number("22")}},
		{"a file of the same size, newer", map[string]string{"db.json": `{"a": 1}`}, "db",
			func(t *testing.T, root string) {
				writeFiles(t, root, map[string]string{"db.json": `{"a": 2}`})
				require.NoError(t, os.Chtimes(filepath.Join(root, "db.json"), later, later))
			},
			map[string]any{"a": json.Number("2")}},
		{"a shard", map[string]string{"db/a.json": `{"x": 1}`, "db/b.json": `[]`}, "db",
			func(t *testing.T, root string) {
				writeFiles(t, root, map[string]string{"db/b.json": `[1]`})
				require.NoError(t, os.Chtimes(filepath.Join(root, "db", "b.json"), later, later))
			},
			map[string]any{"a": map[string]any{"x": json.Number("1")}, "b": []any{json.Number("1")}}},
		{"a new shard", map[string]string{"db/a.json": `{"x": 1}`}, "db",
			func(t *testing.T, root string) { writeFiles(t, root, map[string]string{"db/c.json": `{}`}) },
			map[string]any{"a": map[string]any{"x": json.Number("1")}, "c": map[string]any{}}},
		{"a removed shard", map[string]string{"db/a.json": `{"x": 1}`, "db/c.json": `{}`}, "db",
			func(t *testing.T, root string) { require.NoError(t, os.Remove(filepath.Join(root, "db", "c.json"))) },
			map[string]any{"a": map[string]any{"x": json.Number("1")}}},
		{"a file appears beside the shards", map[string]string{"db/a.json": `{"x": 1}`}, "db",
			func(t *testing.T, root string) { writeFiles(t, root, map[string]string{"db.json": `{"file": true}`}) },
			map[string]any{"file": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tt.files)
			var c state.SourceCache
			old, err := c.Load(root, tt.rel)
			require.NoError(t, err)
			st := state.New()
			st.Share(old)
			before := st.Snapshot()

			tt.change(t, root)
			src, err := c.Load(root, tt.rel)
			require.NoError(t, err)
			assert.NotSame(t, old, src)
			assert.Equal(t, tt.want, sharedCopy(t, src))
			again, err := c.Load(root, tt.rel)
			require.NoError(t, err)
			assert.Same(t, src, again, "the new Source is cached")
			assert.Equal(t, before, st.Snapshot(), "a state sharing the old Source keeps it")
		})
	}
}

// A tool that writes under View changes the shared Source; the next Load
// restores it and says so.
func TestSourceCacheVerifiesOnReuse(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"db/accounts.json": `{"a1": {"balance": 10}}`, "db/log.json": `[]`})
	pristine, err := state.LoadDB(root, "db")
	require.NoError(t, err)
	want, err := dbhash.Hash(pristine)
	require.NoError(t, err)

	var c state.SourceCache
	src, err := c.Load(root, "db")
	require.NoError(t, err)
	st := state.New()
	st.Share(src)
	require.NoError(t, st.View(func(db map[string]any) error {
		db["accounts"].(map[string]any)["a1"].(map[string]any)["balance"] = json.Number("0") // forbidden
		return nil
	}))

	again, err := c.Load(root, "db")
	require.ErrorIs(t, err, state.ErrSourceChanged)
	assert.ErrorContains(t, err, `["accounts"]`)
	require.Same(t, src, again, "the restored Source comes with the error")
	next := state.New()
	next.Share(again)
	assert.Equal(t, pristine, next.Snapshot())
	h, err := next.Hash()
	require.NoError(t, err)
	assert.Equal(t, want, h)

	_, err = c.Load(root, "db")
	assert.NoError(t, err, "restored: the next reuse finds nothing")
}

// Concurrent Loads of one DB get one Source.
func TestSourceCacheConcurrentLoads(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"db/a.json": `{"x": 1}`, "db/b.json": `[1, 2]`, "other.json": `{}`})
	var c state.SourceCache
	const n = 16
	got := make([]*state.Source, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			rel := "db"
			if i%4 == 3 {
				rel = "other"
			}
			src, err := c.Load(root, rel)
			assert.NoError(t, err)
			st := state.New()
			st.Share(src)
			_, err = st.Hash()
			assert.NoError(t, err)
			got[i] = src
		})
	}
	wg.Wait()
	for i := range n {
		if i%4 == 3 {
			assert.Same(t, got[3], got[i])
		} else {
			assert.Same(t, got[0], got[i])
		}
	}
	assert.NotSame(t, got[0], got[3])
}

// Seed with a Source shares it; a Seed that runs a function owns the DB
// first, so the function cannot change the Source.
func TestSeedSharesASource(t *testing.T) {
	orig := map[string]any{"users": map[string]any{"u1": map[string]any{"name": "Ann"}}, "log": []any{}}
	wantHash, err := dbhash.Hash(orig)
	require.NoError(t, err)
	tests := []struct {
		name   string
		tables []string
		then   func(db map[string]any) error
		wantDB map[string]any
	}{
		{"nothing to run", nil, nil, orig},
		{"a function that writes any table", nil, func(db map[string]any) error {
			db["users"].(map[string]any)["u1"].(map[string]any)["name"] = "Bob"
			db["log"] = append(db["log"].([]any), "x")
			return nil
		}, map[string]any{"users": map[string]any{"u1": map[string]any{"name": "Bob"}}, "log": []any{"x"}}},
		{"a function that writes the table it names", []string{"users"}, func(db map[string]any) error {
			db["users"].(map[string]any)["u1"].(map[string]any)["name"] = "Bob"
			return nil
		}, map[string]any{"users": map[string]any{"u1": map[string]any{"name": "Bob"}}, "log": []any{}}},
		{"a function that names no table", []string{}, func(db map[string]any) error {
			db["new"] = "value"
			return nil
		}, map[string]any{"users": map[string]any{"u1": map[string]any{"name": "Ann"}}, "log": []any{}, "new": "value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := state.NewSource(orig)
			st := state.New()
			st.SetDB(map[string]any{"stale": true})
			require.NoError(t, st.Seed(state.Seed{Source: src, DB: map[string]any{"ignored": true}, Domain: "d", Tables: tt.tables}, tt.then))
			assert.Equal(t, tt.wantDB, st.Snapshot())
			assert.Equal(t, "d", st.Domain())
			h, err := st.Hash()
			require.NoError(t, err)
			want, err := dbhash.Hash(tt.wantDB)
			require.NoError(t, err)
			assert.Equal(t, want, h)
			if tt.then == nil {
				assert.Equal(t, wantHash, h)
			}
			assert.NoError(t, src.Verify(), "the Source is as it was")

			var viewed string
			require.NoError(t, st.ViewHashed(func(db map[string]any, actions []state.Action, hash func() (string, error)) error {
				assert.Equal(t, tt.wantDB, db)
				assert.Empty(t, actions)
				viewed, err = hash()
				return err
			}))
			assert.Equal(t, want, viewed, "ViewHashed hashes as Hash does")
		})
	}
}
