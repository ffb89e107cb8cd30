package state_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/state"
)

// LoadSource and LoadSourceFS take the fingerprints as they decode: a
// Source so made verifies clean, catches a change as NewSourceFunc's does,
// and puts the original back — for sharded and single-file DBs, and for a
// file whose object names a key twice (fingerprinted the usual way).
func TestLoadSourcePrinted(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	write("one.json", `{"t":{"a":{"n":1,"s":"x","l":[1.0,true,null,-Infinity]}},"u":[{"k":"v"}],"z":"scalar"}`)
	write("sharded/t.json", `{"a":{"n":1,"s":"x"},"b":{"n":2,"s":"y"}}`)
	write("sharded/u.json", `[{"k":"v"},{"k":"w"}]`)
	write("dup.json", `{"t":{"a":{"n":1,"n":2}}}`)
	fsys := fstest.MapFS{}
	for _, name := range []string{"one.json", "sharded/t.json", "sharded/u.json", "dup.json"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		fsys[name] = &fstest.MapFile{Data: data}
	}
	for _, rel := range []string{"one", "sharded", "dup"} {
		for name, load := range map[string]func() (*state.Source, error){
			"dir": func() (*state.Source, error) { return state.LoadSource(root, rel) },
			"fs":  func() (*state.Source, error) { return state.LoadSourceFS(fsys, rel) },
		} {
			t.Run(rel+"/"+name, func(t *testing.T) {
				want, err := state.LoadDB(root, rel)
				require.NoError(t, err)
				src, err := load()
				require.NoError(t, err)
				require.NoError(t, src.Verify())
				ref := state.NewSource(want)
				assert.Equal(t, hashOf(t, ref), hashOf(t, src))

				db := sharedCopy(t, src)
				t1 := db["t"].(map[string]any)
				t1["a"].(map[string]any)["n"] = 7 // a write under View: forbidden
				assert.ErrorIs(t, src.Verify(), state.ErrSourceChanged)
				assert.Equal(t, want, sharedCopy(t, src), "the original is back")
				assert.NoError(t, src.Verify())
			})
		}
	}
	_, err := state.LoadSource(root, "../x")
	assert.ErrorIs(t, err, state.ErrPathEscape)
	_, err = state.LoadSourceFS(fsys, "nope")
	assert.ErrorIs(t, err, state.ErrDBNotFound)
}

// The real tau2 DBs, sharded (airline) and single-file (retail), verify
// clean when loaded with their prints.
func TestLoadSourcePrintedTau2(t *testing.T) {
	for _, rel := range []string{"airline/db", "retail/db", "telecom/db"} {
		src, err := state.LoadSource(conformance.Tau2Dir(t), rel)
		require.NoError(t, err, rel)
		assert.NoError(t, src.Verify(), rel)
	}
}

func hashOf(t *testing.T, src *state.Source) string {
	t.Helper()
	st := state.New()
	st.Share(src)
	h, err := st.Hash()
	require.NoError(t, err)
	return h
}
