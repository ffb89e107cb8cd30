package dbhash_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
)

func mustHash(t *testing.T, v any, opts ...dbhash.Options) string {
	t.Helper()
	var o dbhash.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	h, err := o.Hash(v)
	require.NoError(t, err)
	return h
}

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := dbhash.Decode([]byte(s))
	require.NoError(t, err)
	return v
}

// Golden values the reference notes give for the Python original.
func TestGoldenHashes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"},
		{`{"x":1}`, "5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22"},
		{`{"x":1.0}`, "5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22"},
		{`{"x":1,"session":{"token":"abc"}}`, "5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22"},
		{`{"qty":1,"meal":null,"fares":[1.0,2.0]}`, "258a4f18f0f281b9a7c94f7b2f4477ddbc2b53507aec88033137be928cb8d420"},
		{`{"qty":1.0,"meal":"none","fares":[1,2]}`, "258a4f18f0f281b9a7c94f7b2f4477ddbc2b53507aec88033137be928cb8d420"},
		{`{"bookings":[{"id":"Y"},{"id":"X"}]}`, "95168b02c1e92a0c11dc934ae0a2527273f7d18f573f932a378742818bee99d7"},
		{`{"bookings":[{"id":"X"},{"id":"Y"}]}`, "95168b02c1e92a0c11dc934ae0a2527273f7d18f573f932a378742818bee99d7"},
		{`{"a":"é","b":0.00001,"c":1234567.5}`, "b2c118f423dbe9ab6c08e18ede47a14710d1df2741bd086992b8c0f4486905b1"},
		{`{"reservations":{"R1":{}}}`, "7533c521991a126506e42acc40ef760988d4b273eff23fffc379e92bf13cc496"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := dbhash.HashJSON([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	c, err := dbhash.Canonical(decode(t, `{"a":"é","b":0.00001,"c":1234567.5}`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":"\u00e9","b":1e-05,"c":1234567.5}`, string(c))
	assert.NotEqual(t, mustHash(t, map[string]any{"x": 1}), mustHash(t, map[string]any{"x": 2}))
}

// Go values hash like the JSON they stand for.
func TestHashGoValues(t *testing.T) {
	fromJSON := mustHash(t, decode(t, `{"a":[1,2.5,true,null,"s"],"b":{"c":12345678901234567890}}`))
	tests := map[string]any{
		"ints and floats": map[string]any{"a": []any{int8(1), 2.5, true, nil, "s"}, "b": map[string]any{"c": uint64(12345678901234567890)}},
		"json.Number":     map[string]any{"a": []any{json.Number("1.0"), float32(2.5), true, nil, "s"}, "b": map[string]any{"c": json.Number("12345678901234567890")}},
	}
	for name, v := range tests {
		assert.Equal(t, fromJSON, mustHash(t, v), name)
	}
}

func TestNormalize(t *testing.T) {
	got := dbhash.Normalize(decode(t, `{"a":[{"b":1.0,"c":"NULL"},2.0],"d":"Null","e":1e23,"f":-0.0,"g":" none\u001f","h":"nonee","bookings":[3,1,2]}`))
	want := map[string]any{
		"a":        []any{map[string]any{"b": json.Number("1"), "c": nil}, json.Number("2")},
		"d":        nil,
		"e":        json.Number("99999999999999991611392"),
		"f":        json.Number("0"),
		"g":        nil,
		"h":        "nonee",
		"bookings": []any{json.Number("1"), json.Number("2"), json.Number("3")},
	}
	assert.Equal(t, want, got)
	assert.Equal(t, json.Number("0.1"), dbhash.Normalize(0.1))
	assert.True(t, math.IsNaN(dbhash.Normalize(math.NaN()).(float64)))
	assert.Equal(t, json.Number("7"), dbhash.Normalize(7))
	type other struct{}
	assert.Equal(t, other{}, dbhash.Normalize(other{}), "other types are left alone")
}

func TestOptions(t *testing.T) {
	v := decode(t, `{"session":1,"meta":2,"tags":["b","a"]}`)
	assert.Equal(t, mustHash(t, decode(t, `{"meta":2,"tags":["b","a"]}`)), mustHash(t, v))
	assert.Equal(t, mustHash(t, decode(t, `{"session":1,"tags":["b","a"]}`), dbhash.Options{ExcludedKeys: []string{}}),
		mustHash(t, decode(t, `{"session":1,"meta":3,"tags":["b","a"]}`), dbhash.Options{ExcludedKeys: []string{"meta"}}))
	assert.Equal(t,
		mustHash(t, decode(t, `{"tags":["a","b"]}`), dbhash.Options{OrderIndependentFields: []string{"tags"}}),
		mustHash(t, decode(t, `{"tags":["b","a"]}`), dbhash.Options{OrderIndependentFields: []string{"tags"}}))
	assert.NotEqual(t, mustHash(t, decode(t, `{"tags":["a","b"]}`)), mustHash(t, decode(t, `{"tags":["b","a"]}`)))
	// The defaults: "session" is the one excluded key; six field names are
	// order-independent, and no other.
	c, err := dbhash.Canonical(decode(t, `{"session":1,"Session":2,"meta":3}`))
	require.NoError(t, err)
	assert.Equal(t, `{"Session":2,"meta":3}`, string(c))
	for _, f := range []string{"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries", "tags"} {
		c, err := dbhash.Canonical(map[string]any{"x": map[string]any{f: []any{2, 1}}})
		require.NoError(t, err)
		want := `{"x":{"` + f + `":[1,2]}}`
		if f == "tags" {
			want = `{"x":{"tags":[2,1]}}`
		}
		assert.Equal(t, want, string(c), f)
	}

	// Excluded keys go only at the top level, and only from objects.
	c, err = dbhash.Canonical(decode(t, `{"a":{"session":1}}`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":{"session":1}}`, string(c))
	c, err = dbhash.Canonical(decode(t, `[{"session":1}]`))
	require.NoError(t, err)
	assert.Equal(t, `[{"session":1}]`, string(c))
}

func TestHashErrors(t *testing.T) {
	type custom struct{}
	tests := map[string]any{
		"struct":            map[string]any{"a": custom{}},
		"typed map":         map[string]any{"a": map[string]string{"b": "c"}},
		"bad number":        map[string]any{"a": json.Number("12abc")},
		"invalid utf-8":     map[string]any{"a": "\xff"},
		"invalid utf-8 key": map[string]any{"\xff": 1},
		"in a list":         []any{1, custom{}},
		"in an unordered":   map[string]any{"bookings": []any{custom{}}},
	}
	for name, v := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := dbhash.Hash(v)
			assert.Error(t, err)
			_, err = dbhash.Canonical(v)
			assert.Error(t, err)
		})
	}
	_, err := dbhash.Hash(map[string]any{"a": custom{}})
	assert.ErrorIs(t, err, dbhash.ErrUnsupported)
	assert.ErrorContains(t, err, "a: ")
}

func TestDepthLimit(t *testing.T) {
	deep := any("leaf")
	for range dbhash.MaxDepth + 5 {
		deep = []any{deep}
	}
	_, err := dbhash.Hash(deep)
	assert.ErrorIs(t, err, dbhash.ErrTooDeep)
	assert.NotPanics(t, func() { dbhash.Normalize(deep) })

	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	_, err = dbhash.Hash(cyclic)
	assert.ErrorIs(t, err, dbhash.ErrTooDeep)

	_, err = dbhash.HashJSON([]byte(deepArrays(dbhash.MaxDepth + 5)))
	assert.Error(t, err)
	_, err = dbhash.HashJSON([]byte(deepArrays(dbhash.MaxDepth - 5)))
	assert.NoError(t, err)
}

func deepArrays(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// Large DBs are hashed in parallel; the digest must equal the SHA-256 of
// the sequential canonical bytes, including excluded keys, non-object
// tables, order-independent lists and errors deep inside a segment.
func TestParallelMatchesCanonical(t *testing.T) {
	db := map[string]any{"session": map[string]any{"x": 1}, "config": []any{"b", "a"}, "small": map[string]any{"k": "none"}}
	for ti, table := range []string{"users", "orders", "é_table"} {
		recs := map[string]any{}
		for i := range 500 * (ti + 1) {
			recs[fmt.Sprintf("r%05d", i)] = map[string]any{
				"id": i, "price": float64(i) / 4, "bookings": []any{3 - i%3, "x", i % 2},
				"name": fmt.Sprintf("Ünïcode %d", i), "note": " NULL ",
			}
		}
		db[table] = recs
	}
	canonical, err := dbhash.Canonical(db)
	require.NoError(t, err)
	sum := sha256.Sum256(canonical)
	assert.Equal(t, hex.EncodeToString(sum[:]), mustHash(t, db))

	db["orders"].(map[string]any)["r00042"].(map[string]any)["bad"] = struct{}{}
	_, err = dbhash.Hash(db)
	assert.ErrorIs(t, err, dbhash.ErrUnsupported)
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{true, json.Number("1"), true},
		{false, 0, true},
		{true, 2, false},
		{json.Number("1.0"), 1, true},
		{json.Number("9007199254740993"), json.Number("9007199254740993.0"), false},
		{math.NaN(), math.NaN(), false},
		{math.Inf(1), json.Number("1e400"), true},
		{"1", 1, false},
		{nil, nil, true},
		{nil, "None", false},
		{map[string]any{"a": []any{1.0}}, map[string]any{"a": []any{int64(1)}}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{[]any{1}, []any{1, 2}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, dbhash.Equal(tt.a, tt.b), "%#v == %#v", tt.a, tt.b)
	}
}

// Python compares container members by identity first, and json.loads
// reuses one NaN object: NaN inside a list or object equals NaN.
func TestEqualNaNInContainers(t *testing.T) {
	assert.False(t, dbhash.Equal(math.NaN(), math.NaN()))
	assert.True(t, dbhash.Equal([]any{math.NaN()}, []any{math.NaN()}))
	assert.True(t, dbhash.Equal(map[string]any{"x": []any{math.NaN()}}, map[string]any{"x": []any{math.NaN()}}))
	d := dbhash.Compare(map[string]any{"t": map[string]any{"r": map[string]any{"x": math.NaN()}}},
		map[string]any{"t": map[string]any{"r": map[string]any{"x": math.NaN()}}})
	assert.True(t, d.Empty())
}

func TestErrorsAreInspectable(t *testing.T) {
	_, err := dbhash.HashJSON([]byte(`{"a":`))
	assert.ErrorIs(t, err, dbhash.ErrInvalidJSON)
	_, err = dbhash.HashJSON([]byte(deepArrays(dbhash.MaxDepth + 5)))
	assert.ErrorIs(t, err, dbhash.ErrInvalidJSON)
	assert.ErrorIs(t, err, dbhash.ErrTooDeep)
	_, err = dbhash.Hash(map[string]any{"k": "bad \xff"})
	assert.ErrorIs(t, err, dbhash.ErrUnsupported)
	_, err = dbhash.Hash(map[string]any{"bad \xff": 1})
	assert.ErrorIs(t, err, dbhash.ErrUnsupported)
}
