package state_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/state"
)

// Verify compares values exactly, not by their canonical text: changes
// that leave the DB hash as it was are changes all the same (a tool may
// read the value they changed).
func TestVerifyCatchesChangesTheHashDoesNotSee(t *testing.T) {
	db := func() map[string]any {
		return map[string]any{
			"orders": map[string]any{"O1": map[string]any{"qty": json.Number("1"), "price": 2.0, "note": "None",
				"notifications": []any{"a", "b"}}},
			"log": []any{map[string]any{"n": 1}, map[string]any{"n": 2}},
		}
	}
	for _, tt := range []struct {
		name     string
		change   func(db map[string]any)
		hashSees bool
	}{
		{"1 becomes 1.0", func(db map[string]any) { rec(db)["qty"] = json.Number("1.0") }, false},
		{"a float becomes a number", func(db map[string]any) { rec(db)["price"] = json.Number("2") }, false},
		{"a float becomes an int", func(db map[string]any) { rec(db)["price"] = 2 }, false},
		{"None becomes null", func(db map[string]any) { rec(db)["note"] = nil }, false},
		{"an order-independent list is reordered", func(db map[string]any) { rec(db)["notifications"] = []any{"b", "a"} }, false},
		{"list rows swap", func(db map[string]any) { l := db["log"].([]any); l[0], l[1] = l[1], l[0] }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := state.NewSource(db())
			before, err := dbhash.Hash(sharedCopy(t, src))
			require.NoError(t, err)
			tt.change(sharedCopy(t, src)) // a write under View: forbidden
			if !tt.hashSees {
				after, err := dbhash.Hash(sharedCopy(t, src))
				require.NoError(t, err)
				require.Equal(t, before, after, "the hash cannot tell")
			}
			assert.ErrorIs(t, src.Verify(), state.ErrSourceChanged)
			assert.Equal(t, db(), sharedCopy(t, src), "the original is back")
			assert.NoError(t, src.Verify())
		})
	}
}

func rec(db map[string]any) map[string]any {
	return db["orders"].(map[string]any)["O1"].(map[string]any)
}

// NewSourceFunc keeps no copy: it owns what load returns and calls load
// again only to undo a change.
func TestLoadSource(t *testing.T) {
	calls := 0
	var failAgain error
	load := func() (map[string]any, error) {
		calls++
		if calls > 1 && failAgain != nil {
			return nil, failAgain
		}
		return map[string]any{"accounts": map[string]any{"a1": map[string]any{"balance": json.Number("10")}}}, nil
	}
	src, err := state.NewSourceFunc(load)
	require.NoError(t, err)
	assert.Equal(t, 1, calls)
	require.NoError(t, src.Verify())
	assert.Equal(t, 1, calls, "an unchanged DB is not loaded again")

	st := state.New()
	st.Share(src)
	h0, err := st.Hash()
	require.NoError(t, err)
	drain := func() {
		_ = st.View(func(db map[string]any) error {
			db["accounts"].(map[string]any)["a1"].(map[string]any)["balance"] = json.Number("0") // forbidden
			return nil
		})
	}
	drain()
	err = src.Verify()
	require.ErrorIs(t, err, state.ErrSourceChanged)
	assert.ErrorContains(t, err, `["accounts"]`)
	assert.Equal(t, 2, calls, "the original is loaded again")
	fresh := state.New()
	fresh.Share(src)
	h1, err := fresh.Hash()
	require.NoError(t, err)
	assert.Equal(t, h0, h1)
	assert.Equal(t, json.Number("10"), sharedCopy(t, src)["accounts"].(map[string]any)["a1"].(map[string]any)["balance"])

	// When loading again fails, Verify says both.
	failAgain = errors.New("disk gone")
	st.Share(src)
	drain()
	err = src.Verify()
	assert.ErrorIs(t, err, state.ErrSourceChanged)
	assert.ErrorContains(t, err, "disk gone")

	_, err = state.NewSourceFunc(func() (map[string]any, error) { return nil, errors.New("no such DB") })
	assert.EqualError(t, err, "no such DB")
	empty, err := state.NewSourceFunc(func() (map[string]any, error) { return nil, nil })
	require.NoError(t, err)
	assert.Equal(t, map[string]any{}, sharedCopy(t, empty), "nil is an empty DB")
}
