package dbhash_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// nestedOIL returns k lists under an order-independent field name nested
// inside each other: {"bookings":[{"bookings":[ … 1 … ]}]}.
func nestedOIL(k int) string {
	return strings.Repeat(`{"bookings":[`, k) + "1" + strings.Repeat("]}", k)
}

// nestedOILSiblings nests k order-independent lists, each with a string
// beside the object, in input order and (sorted) in Python's order: the
// string's text sorts first.
func nestedOILSiblings(k int) (in, sorted string) {
	in, sorted = "1", "1"
	for range k {
		in = `{"bookings":[` + in + `,"z"],"x":"y"}`
		sorted = `{"bookings":["z",` + sorted + `],"x":"y"}`
	}
	return in, sorted
}

// The inputs a differential run against the Python original found Go
// hashing differently, with the text and hash Python gives.
func TestParityRepros(t *testing.T) {
	siblingsIn, siblingsSorted := nestedOILSiblings(300)
	tests := []struct {
		name, in, serialized, hash string
	}{
		{"a string of NUL and a number's text", `[8,"\u00008"]`, `[8,"\u00008"]`,
			"552b10aa594478fd2e9cc8b7819da7fb9f5be99be425124f217b9f0e2e7b8d91"},
		{"the string first", `{"a":["\u00008",8]}`, `{"a":["\u00008",8]}`, ""},
		{"801 significant digits", `{"v":9007199254740993` + strings.Repeat("0", 785) + `1e-786}`,
			`{"v":9007199254740994}`, ""},
		{"an exponent past 10000", `{"v":0.` + strings.Repeat("0", 99999) + `1e100005}`, `{"v":100000}`, ""},
		{"order-independent lists nested 20 deep", nestedOIL(20), nestedOIL(20), ""},
		// Sort keys were encoded again at every level: 2^k work. Now each
		// level encodes its items once; these would not end before.
		{"order-independent lists nested 300 deep", nestedOIL(300), nestedOIL(300), ""},
		{"nested 300 deep, with siblings", siblingsIn, siblingsSorted, ""},
		{"unsorted inside sorted", `{"bookings":[{"bookings":[3,1,2]},{"bookings":[2,1]}]}`,
			`{"bookings":[{"bookings":[1,2,3]},{"bookings":[1,2]}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := dbhash.Decode([]byte(tt.in))
			require.NoError(t, err)
			c, err := dbhash.Canonical(v)
			require.NoError(t, err)
			assert.Equal(t, tt.serialized, string(c))
			sum := sha256.Sum256([]byte(tt.serialized))
			want := hex.EncodeToString(sum[:])
			if tt.hash != "" {
				require.Equal(t, tt.hash, want, "the Python hash is the SHA-256 of its text")
			}
			got, err := dbhash.HashJSON([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, want, got)
			n, err := pyjson.Marshal(dbhash.Normalize(v), pyjson.Compact)
			require.NoError(t, err)
			assert.Equal(t, tt.serialized, string(n), "Normalize agrees with the hash")
		})
	}
}

// compute_db_diff of the interning repro: Python sees a str against an int.
func TestParityDiffRepro(t *testing.T) {
	e := decode(t, `{"t":{"r":[8,"\u00008"]}}`).(map[string]any)
	a := decode(t, `{"t":{"r":[8,8]}}`).(map[string]any)
	got, err := pyjson.Marshal(dbhash.Compare(e, a).Tree(), pyjson.Compact)
	require.NoError(t, err)
	assert.Equal(t, `{"tables_added":[],"tables_modified":{"t":{"records_added":[],"records_modified":{"r":`+
		`{"differences":[{"diff":{"actual":8,"actual_type":"int","expected":"\u00008","expected_type":"str",`+
		`"type":"type_mismatch"},"index":1}],"type":"list_differences"}},"records_removed":[]}},"tables_removed":[]}`,
		string(got))
}

// Compare sorts nested order-independent lists once per level too.
func TestCompareNestedOrderIndependent(t *testing.T) {
	in, sorted := nestedOILSiblings(300)
	table := func(s string) map[string]any { return decode(t, `{"t":{"r":`+s+`}}`).(map[string]any) }
	assert.True(t, dbhash.Compare(table(in), table(sorted)).Empty(), "the same lists in another order")
	d := dbhash.Compare(table(nestedOIL(300)), table(strings.Replace(nestedOIL(300), "1", "2", 1)))
	require.False(t, d.Empty())
	c := d.Modified("t").Modified["r"]
	for range 299 {
		c = c.Modified["bookings"].Differences[0].Diff
	}
	assert.Equal(t, "value_mismatch", c.Modified["bookings"].Differences[0].Diff.Kind)
}

// nestedInputs are the nested order-independent inputs of the
// benchmarks, by depth: one item a level (the differential run's input),
// and two (an object and a string, to sort).
func nestedInputs(k int) map[string]string {
	pairs, _ := nestedOILSiblings(k)
	return map[string]string{"one": nestedOIL(k), "two": pairs}
}

// Hashing k nested order-independent lists: with one item a level, work
// linear in the input; with two, each level encodes its subtree once for
// its sort keys (k times the size, as in Python), never 2^k.
func BenchmarkHashNestedOrderIndependent(b *testing.B) {
	for _, items := range []string{"one", "two"} {
		for _, k := range []int{10, 20, 40, 80} {
			in := nestedInputs(k)[items]
			v, err := dbhash.Decode([]byte(in))
			require.NoError(b, err)
			b.Run(fmt.Sprintf("items=%s/depth=%d", items, k), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					if _, err := dbhash.Hash(v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// Compare's work is bounded the same way (Python's == at every level of a
// difference makes it k times the size there too).
func BenchmarkCompareNestedOrderIndependent(b *testing.B) {
	for _, items := range []string{"one", "two"} {
		for _, k := range []int{10, 20, 40, 80} {
			in := nestedInputs(k)[items]
			e, err := dbhash.Decode([]byte(`{"t":{"r":` + in + `}}`))
			require.NoError(b, err)
			a, err := dbhash.Decode([]byte(`{"t":{"r":` + strings.Replace(in, "1", "2", 1) + `}}`))
			require.NoError(b, err)
			b.Run(fmt.Sprintf("items=%s/depth=%d", items, k), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					if dbhash.Compare(e.(map[string]any), a.(map[string]any)).Empty() {
						b.Fatal("no difference found")
					}
				}
			})
		}
	}
}

// The policy for what Python accepts and what it refuses (package doc).
func TestInputPolicy(t *testing.T) {
	const text = `{"a":"é","n":[1,2.5]}`
	want, err := dbhash.HashJSON([]byte(text))
	require.NoError(t, err)
	le := []byte{}
	for _, r := range text {
		le = append(le, byte(r), byte(r>>8)) // BMP only: one UTF-16 unit each
	}
	t.Run("UTF-16 hashes as Python reads it (UTF-32: pyjson tests)", func(t *testing.T) {
		got, err := dbhash.HashJSON(le)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		got, err = dbhash.HashJSON(append([]byte{0xff, 0xfe}, le...))
		require.NoError(t, err)
		assert.Equal(t, want, got)
		_, err = dbhash.HashJSON(append([]byte{0xff, 0xfe}, le[:len(le)-1]...))
		assert.ErrorIs(t, err, dbhash.ErrInvalidJSON)
		assert.ErrorContains(t, err, "UnicodeDecodeError")
	})
	t.Run("integers past 4,300 digits are refused with Python's ValueError", func(t *testing.T) {
		_, err := dbhash.HashJSON([]byte(`{"n":` + strings.Repeat("9", 4300) + `}`))
		require.NoError(t, err)
		_, err = dbhash.HashJSON([]byte(`{"n":` + strings.Repeat("9", 4301) + `}`))
		assert.ErrorIs(t, err, dbhash.ErrInvalidJSON)
		assert.ErrorContains(t, err, "ValueError: Exceeds the limit (4300 digits)")
		_, err = dbhash.Hash(map[string]any{"n": []any{json.Number("-" + strings.Repeat("9", 4301))}})
		assert.ErrorIs(t, err, dbhash.ErrUnsupported)
		assert.ErrorContains(t, err, "ValueError: Exceeds the limit (4300 digits)")
		_, err = dbhash.Canonical(map[string]any{"n": new(big.Int).Exp(big.NewInt(10), big.NewInt(4300), nil)})
		assert.ErrorIs(t, err, dbhash.ErrUnsupported)
	})
	t.Run("nesting Python's recursion limit refuses is hashed", func(t *testing.T) {
		deep := `{"a":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`
		got, err := dbhash.HashJSON([]byte(deep))
		require.NoError(t, err)
		sum := sha256.Sum256([]byte(deep))
		assert.Equal(t, hex.EncodeToString(sum[:]), got)
	})
}
