package state_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/state"
)

// orderedDB is a DB whose file order is not sorted: its users share their
// keys and order, but the second one's address lists them in another
// order (the retail DB's Sneakers and Pet Beds); the items list two
// objects with one set of keys in two orders.
const orderedDB = `{
  "users": {
    "u2": {"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}},
    "u1": {"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}}
  },
  "items": [{"size": "S", "color": "red"}, {"color": "blue", "size": "M"}],
  "meta": {"version": 1, "note": "n"}
}`

// writeDB writes files (name → content) into a new data root.
func writeDB(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return root
}

// text is v as a model reads it: json.dumps(v, ensure_ascii=False).
func text(t *testing.T, v any) string {
	t.Helper()
	out, err := pyvalue.AppendJSON(nil, v, pyjson.Unicode, false)
	require.NoError(t, err)
	return string(out)
}

// sharedOn returns a fresh state sharing a Source of the DB rel under root,
// decoded from its files.
func sharedOn(t *testing.T, root, rel string) (*state.Shared, *state.Source) {
	t.Helper()
	src, err := state.LoadSource(root, rel)
	require.NoError(t, err)
	st := state.New()
	st.Share(src)
	return st, src
}

// copyAt returns the ordered copy of the value at path in st's DB.
func copyAt(t *testing.T, st *state.Shared, path ...any) any {
	t.Helper()
	var out any
	require.NoError(t, st.ViewOrdered(func(db map[string]any, o *state.Order) error {
		var v any = db
		for _, p := range path {
			switch k := p.(type) {
			case string:
				v = v.(map[string]any)[k]
			case int:
				v = v.([]any)[k]
			}
		}
		out = o.Copy(v)
		return nil
	}))
	return out
}

func TestLoadedKeyOrder(t *testing.T) {
	for _, layout := range []struct {
		name  string
		files map[string]string
		rel   string
	}{
		{"single file", map[string]string{"db.json": orderedDB}, "db"},
		{"shards", func() map[string]string {
			var parts map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(orderedDB), &parts))
			out := map[string]string{}
			for k, v := range parts {
				out["db/"+k+".json"] = string(v)
			}
			return out
		}(), "db"},
	} {
		t.Run(layout.name, func(t *testing.T) {
			st, _ := sharedOn(t, writeDB(t, layout.files), layout.rel)
			for _, c := range []struct {
				path []any
				want string
			}{
				{[]any{"users", "u1"}, `{"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}}`},
				{[]any{"users", "u2"}, `{"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}`},
				{[]any{"users"}, `{"u2": {"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}, "u1": {"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}}}`},
				{[]any{"items"}, `[{"size": "S", "color": "red"}, {"color": "blue", "size": "M"}]`},
				{[]any{"items", 1}, `{"color": "blue", "size": "M"}`},
				{[]any{"meta"}, `{"version": 1, "note": "n"}`},
			} {
				assert.Equal(t, c.want, text(t, copyAt(t, st, c.path...)), "%v", c.path)
			}
		})
	}
}

// Shards that give one set of keys two orders: each object keeps its
// file's.
func TestShardsClash(t *testing.T) {
	root := writeDB(t, map[string]string{
		"db/a.json": `{"x": {"p": 1, "q": 2}, "y": {"q": 3, "p": 4}}`,
		"db/b.json": `{"z": {"q": 5, "p": 6}, "w": {"q": 7, "p": 8}, "v": {"p": 9, "q": 0}}`,
	})
	st, _ := sharedOn(t, root, "db")
	for path, want := range map[[2]string]string{
		{"a", "x"}: `{"p": 1, "q": 2}`, {"a", "y"}: `{"q": 3, "p": 4}`,
		{"b", "z"}: `{"q": 5, "p": 6}`, {"b", "w"}: `{"q": 7, "p": 8}`, {"b", "v"}: `{"p": 9, "q": 0}`,
	} {
		assert.Equal(t, want, text(t, copyAt(t, st, path[0], path[1])), "%v", path)
	}
}

// What tools write keeps the order they give it, and the Python order of
// assignment; the DB and its hash are those of the same writes without
// any order.
func TestOrderedWrites(t *testing.T) {
	root := writeDB(t, map[string]string{"db.json": orderedDB})
	for _, c := range []struct {
		name  string
		write func(w *state.Writer) (any, error) // returns what to read back, from the live DB
		want  string
	}{
		{"a record keeps its order", func(w *state.Writer) (any, error) { return w.Own("users", "u2") },
			`{"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}`},
		{"Set: a new key goes last, an existing one stays", func(w *state.Writer) (any, error) {
			u, err := w.Own("users", "u1")
			w.Order().Set(u, "zeta", 1)
			w.Order().Set(u, "alpha", 2)
			w.Order().Set(u, "name", "A2")
			return u, err
		}, `{"name": "A2", "id": "u1", "address": {"city": "X", "zip": "1"}, "zeta": 1, "alpha": 2}`},
		{"a key assigned plainly to an owned record goes last", func(w *state.Writer) (any, error) {
			u, err := w.Own("users", "u1")
			u["aa"] = true
			return u, err
		}, `{"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}, "aa": true}`},
		{"Delete keeps the others' order", func(w *state.Writer) (any, error) {
			u, err := w.Own("users", "u2")
			w.Order().Delete(u, "id")
			return u, err
		}, `{"name": "B", "address": {"zip": "2", "city": "Y"}}`},
		{"Keep gives a built record its order; an object it does not name has its set's", func(w *state.Writer) (any, error) {
			rec := w.Order().Keep(map[string]any{"id": "u3", "name": "C", "address": map[string]any{"city": "Z", "zip": "3"}}, "id", "name", "address")
			return rec, w.Put("users", "u3", rec)
		}, `{"id": "u3", "name": "C", "address": {"zip": "3", "city": "Z"}}`},
		{"a table written keeps its order, a record put goes last", func(w *state.Writer) (any, error) {
			err := w.Put("users", "u0", map[string]any{"name": "Z"})
			return w.DB["users"], err
		}, `{"u2": {"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}, "u1": {"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}}, "u0": {"name": "Z"}}`},
		{"Clone keeps a copied object's own order", func(w *state.Writer) (any, error) {
			u, err := w.Own("users", "u1")
			if err == nil {
				src := w.DB["users"].(map[string]any)["u2"].(map[string]any)["address"]
				w.Order().Set(u, "copied", w.Order().Clone(src))
			}
			return u, err
		}, `{"name": "A", "id": "u1", "address": {"city": "X", "zip": "1"}, "copied": {"zip": "2", "city": "Y"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, src := sharedOn(t, root, "db")
			var got string
			require.NoError(t, st.UpdateTables([]string{}, func(db map[string]any) error {
				o := state.OrderOf(db)
				v, err := c.write(o.Writer(db, "users"))
				got = text(t, o.Copy(v))
				return err
			}))
			assert.Equal(t, c.want, got)
			require.NoError(t, src.Verify(), "the write changed the shared DB")

			// The order outlives the write: a later read sees it.
			var back string
			require.NoError(t, st.ViewOrdered(func(db map[string]any, o *state.Order) error {
				back = text(t, o.Copy(db["users"]))
				return nil
			}))
			assert.Contains(t, back, c.want[:len(c.want)-1])

			// The same writes on a DB without its order hash the same.
			plain := state.New()
			db, err := state.LoadDB(root, "db")
			require.NoError(t, err)
			plain.SetDB(db)
			require.NoError(t, plain.UpdateTables([]string{}, func(db map[string]any) error {
				_, err := c.write(state.NewWriter(db, "users"))
				return err
			}))
			h1, err := st.Hash()
			require.NoError(t, err)
			h2, err := plain.Hash()
			require.NoError(t, err)
			assert.Equal(t, h2, h1)
		})
	}
}

// UpdateTables copies the tables it names, and their objects keep their
// order, those with an order of their own included.
func TestTableCopiesKeepOrder(t *testing.T) {
	st, src := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	require.NoError(t, st.UpdateTables([]string{"users", "items"}, func(db map[string]any) error {
		db["users"].(map[string]any)["u1"].(map[string]any)["name"] = "A2"
		return nil
	}))
	require.NoError(t, src.Verify())
	assert.Equal(t, `{"name": "A2", "id": "u1", "address": {"city": "X", "zip": "1"}}`, text(t, copyAt(t, st, "users", "u1")))
	assert.Equal(t, `{"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}`, text(t, copyAt(t, st, "users", "u2")))
	assert.Equal(t, `[{"size": "S", "color": "red"}, {"color": "blue", "size": "M"}]`, text(t, copyAt(t, st, "items")))
	require.NoError(t, st.UpdateTables([]string{"users"}, func(db map[string]any) error {
		db["users"].(map[string]any)["u0"] = map[string]any{"name": "Z"}
		return nil
	}))
	assert.Equal(t, `["u2", "u1", "u0"]`, text(t, copyKeys(t, st, "users")), "a record added to a copied table goes last")
}

// copyKeys returns the keys of the object at path in st's DB, in order.
func copyKeys(t *testing.T, st *state.Shared, path ...string) []any {
	t.Helper()
	var out []any
	require.NoError(t, st.ViewOrdered(func(db map[string]any, o *state.Order) error {
		v := db
		for _, p := range path {
			v = v[p].(map[string]any)
		}
		for _, k := range o.Of(v) {
			out = append(out, k)
		}
		return nil
	}))
	return out
}

// resultOf is a result struct holding records of the DB.
type resultOf struct {
	Status string `json:"status"`
	Record any    `json:"record"`
	Pair   [2]any `json:"pair"`
	List   []any  `json:"list"`
	Inner  struct {
		Items []any `json:"items"`
	} `json:"inner"`
	private map[string]any
}

// Copy copies a result struct's records in order, and the copy shares
// nothing with the DB.
func TestCopyStructs(t *testing.T) {
	st, src := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	var got resultOf
	require.NoError(t, st.ViewOrdered(func(db map[string]any, o *state.Order) error {
		u2 := db["users"].(map[string]any)["u2"]
		r := resultOf{Status: "success", Record: u2, Pair: [2]any{u2, db["meta"]}, List: []any{db["meta"]}, private: db}
		r.Inner.Items = db["items"].([]any)
		got = o.Copy(r).(resultOf)
		return nil
	}))
	b, err := json.Marshal(got)
	require.NoError(t, err)
	v, err := pyvalue.Loads(b)
	require.NoError(t, err)
	u2 := `{"name": "B", "id": "u2", "address": {"zip": "2", "city": "Y"}}`
	assert.Equal(t, `{"status": "success", "record": `+u2+`, "pair": [`+u2+`, {"version": 1, "note": "n"}], "list": [{"version": 1, "note": "n"}], "inner": {"items": [{"size": "S", "color": "red"}, {"color": "blue", "size": "M"}]}}`, text(t, v))
	// Changing the copy changes nothing in the DB.
	got.Record.(pyvalue.Dict)[0].Value = "changed"
	got.Inner.Items[0].(pyvalue.Dict)[0].Value = "changed"
	require.NoError(t, src.Verify())
	assert.Equal(t, u2, text(t, copyAt(t, st, "users", "u2")))
}

// A DB given as a map has no order: Copy is Clone, objects stay maps, as
// before; a record a tool gives an order has it.
func TestNoOrderIsClone(t *testing.T) {
	v, err := dbhash.Decode([]byte(orderedDB))
	require.NoError(t, err)
	db := v.(map[string]any)
	for name, st := range map[string]*state.Shared{"SetDB": state.New(), "NewSource": state.New()} {
		if name == "SetDB" {
			st.SetDB(state.Clone(db).(map[string]any))
		} else {
			st.Share(state.NewSource(db))
		}
		var got any
		require.NoError(t, st.ViewOrdered(func(db map[string]any, o *state.Order) error {
			got = o.Copy(db["users"].(map[string]any)["u2"])
			return nil
		}))
		assert.IsType(t, map[string]any{}, got, name)
		assert.Equal(t, `{"address": {"city": "Y", "zip": "2"}, "id": "u2", "name": "B"}`, text(t, got), name)
	}
	st := state.New()
	st.SetDB(state.Clone(db).(map[string]any))
	var got any
	require.NoError(t, st.UpdateTables(nil, func(db map[string]any) error {
		o := state.OrderOf(db)
		rec := o.Keep(map[string]any{"b": 1, "a": 2}, "b", "a")
		db["meta"].(map[string]any)["new"] = rec
		got = o.Copy(db["meta"])
		return nil
	}))
	assert.Equal(t, `{"new": {"b": 1, "a": 2}, "note": "n", "version": 1}`, text(t, got))
}

// A Source restored by Verify keeps its files' order.
func TestVerifyRestoresOrder(t *testing.T) {
	st, src := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	require.NoError(t, st.View(func(db map[string]any) error {
		db["meta"].(map[string]any)["version"] = 2 // breaks the rules on purpose
		return nil
	}))
	require.ErrorIs(t, src.Verify(), state.ErrSourceChanged)
	again := state.New()
	again.Share(src)
	assert.Equal(t, `{"version": 1, "note": "n"}`, text(t, copyAt(t, again, "meta")))
}

// Under a read, an Order changes nothing but the maps: Keep notes nothing.
func TestReadOrderRecordsNothing(t *testing.T) {
	st, _ := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	require.NoError(t, st.ViewOrdered(func(_ map[string]any, o *state.Order) error {
		m := o.Keep(map[string]any{"b": 1, "a": 2}, "b", "a")
		assert.Equal(t, []string{"a", "b"}, o.Of(m))
		return nil
	}))
	var nilOrder *state.Order
	assert.Equal(t, []string{"a", "b"}, nilOrder.Of(map[string]any{"b": 1, "a": 2}))
	assert.Equal(t, map[string]any{"a": 1}, nilOrder.Copy(map[string]any{"a": 1}))
}

// OrderOf gives code that gets only the DB (an initialisation function)
// the order of a DB a write callback holds, and nothing for any other map.
func TestOrderOf(t *testing.T) {
	st, _ := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	build := func(db map[string]any) error {
		o := state.OrderOf(db)
		require.NotNil(t, o)
		db["meta"].(map[string]any)["added"] = o.Keep(map[string]any{"b": 1, "a": 2}, "b", "a")
		return nil
	}
	require.NoError(t, st.UpdateTables([]string{"meta"}, build))
	assert.Equal(t, `{"b": 1, "a": 2}`, text(t, copyAt(t, st, "meta", "added")))
	require.NoError(t, st.Seed(state.Seed{Tables: []string{"meta"}}, build))
	require.NoError(t, st.View(func(db map[string]any) error {
		assert.Nil(t, state.OrderOf(db), "under a read")
		return nil
	}))
	assert.Nil(t, state.OrderOf(map[string]any{"a": 1}))
	assert.Nil(t, state.OrderOf(nil))
}

// A callback that works on a Clone of the DB it holds and puts the tables
// back (as rtvi applies a sync delta) keeps the order the state knew, the
// file's exceptions and what writes noted.
func TestCloneInAWriteKeepsOrder(t *testing.T) {
	st, _ := sharedOn(t, writeDB(t, map[string]string{"db.json": orderedDB}), "db")
	require.NoError(t, st.UpdateTables([]string{"meta"}, func(db map[string]any) error {
		o := state.OrderOf(db)
		db["meta"].(map[string]any)["added"] = o.Keep(map[string]any{"b": 1, "a": 2}, "b", "a")
		return nil
	}))
	require.NoError(t, st.UpdateTables(nil, func(db map[string]any) error {
		work := state.Clone(db).(map[string]any)
		work["meta"].(map[string]any)["version"] = 2
		clear(db)
		maps.Copy(db, work)
		return nil
	}))
	assert.Equal(t, `{"version": 2, "note": "n", "added": {"b": 1, "a": 2}}`, text(t, copyAt(t, st, "meta")))
	assert.Equal(t, `[{"size": "S", "color": "red"}, {"color": "blue", "size": "M"}]`, text(t, copyAt(t, st, "items")))
}
