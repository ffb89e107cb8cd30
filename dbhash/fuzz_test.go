package dbhash_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/state"
)

// FuzzHashJSON feeds arbitrary bytes to the hash. It must never panic, and
// for every input it accepts: the digest is the SHA-256 of Canonical, and
// hashing is stable under normalisation — hash(x) equals the hash of x
// normalised, written out and read back.
func FuzzHashJSON(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `null`, `{"x":1.0,"session":{"a":1}}`, `{"bookings":[{"id":"Y"},{"id":"X"},2,"none"]}`,
		`{"a":"é\u00e9\ud83d\ude00\ud800","b":0.00001,"c":1234567.5,"d":1e400,"e":NaN,"f":-Infinity}`,
		`{"n":[-0,-0.0,1e23,12345678901234567890,1E2,0.1]," null ":" NULL\u001f"}`,
		`{"notifications":[[2,1],{"b":1,"a":2},"\u0000\u007f"]}`,
		"{\"raw\":\"\xed\xa0\x80\"}", "\xef\xbb\xbf{}", `[[[[[]]]]]`, `{"a":`,
		`{"bookings":[{"bookings":[" a, b: c",{"x":"\" , :\\","y":[1, 2]}]},"z","\\"]}`,
		`[8,"\u00008"]`, `{"v":1e100005}`, "\xff\xfe{\x00}\x00", "{\x00\"\x00a\x00\"\x00:\x001\x00}\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := dbhash.Decode(data)
		if err != nil {
			return
		}
		h, err := dbhash.Hash(v)
		if err != nil {
			return
		}
		canonical, err := dbhash.Canonical(v)
		if err != nil {
			t.Fatalf("Hash accepted what Canonical refused: %v", err)
		}
		sum := sha256.Sum256(canonical)
		if hex.EncodeToString(sum[:]) != h {
			t.Fatalf("Hash is not the SHA-256 of Canonical for %q", data)
		}
		normal := dbhash.Normalize(v)
		text, err := pyjson.Marshal(normal, pyjson.Compact)
		if err != nil {
			t.Fatalf("normalised value does not encode: %v", err)
		}
		// Canonical sorts order-independent lists its own way (one encoding
		// a level); Normalize bottom-up. Their texts agree.
		if m, ok := normal.(map[string]any); ok {
			delete(m, "session")
			if text, err = pyjson.Marshal(m, pyjson.Compact); err != nil {
				t.Fatal(err)
			}
		}
		if string(text) != string(canonical) {
			t.Fatalf("Canonical and Normalize disagree on %q:\n%s\n%s", data, canonical, text)
		}
		again, err := dbhash.HashJSON(text)
		if err != nil {
			t.Fatalf("normalised text %q does not hash: %v", text, err)
		}
		if again != h {
			t.Fatalf("hash changed after normalising %q: %s -> %s (%q)", data, h, again, text)
		}
	})
}

// FuzzHashCached builds a Cache of an arbitrary DB, then edits a
// copy-on-write copy of it as the edit bytes say — tables kept, replaced,
// dropped or added, records kept, replaced, added, removed or moved — and
// checks that the hash with the cache is the hash without it.
func FuzzHashCached(f *testing.F) {
	for _, seed := range []struct{ db, edits string }{
		{`{"lines":[{"id":"L1"},{"id":"L2"},3],"users":{"U1":{"a":1},"U2":{"b":[2,1]}}}`, "\x01\x02\x03"},
		{`{"bookings":[{"id":"Y"},{"id":"X"}],"t":{"notifications":[{"b":1},{"a":2}]}}`, "\x05\x00\x07\x02"},
		{`{"session":{"x":1},"a":[],"b":{},"c":1}`, "\x04\x04\x04"},
	} {
		f.Add([]byte(seed.db), []byte(seed.edits))
	}
	f.Fuzz(func(t *testing.T, data, edits []byte) {
		v, err := dbhash.Decode(data)
		if err != nil {
			return
		}
		db, ok := v.(map[string]any)
		if !ok {
			return
		}
		cache, err := dbhash.NewCache(db)
		if err != nil {
			if _, plain := dbhash.Hash(db); plain == nil {
				t.Fatalf("NewCache refused a DB that hashes: %v", err)
			}
			return
		}
		next := func() byte {
			if len(edits) == 0 {
				return 0
			}
			b := edits[0]
			edits = edits[1:]
			return b
		}
		changed := make(map[string]any, len(db))
		for _, k := range sortedKeys(db) {
			changed[k] = editTable(db[k], next)
		}
		if next()%2 == 1 {
			changed["added"] = []any{map[string]any{"k": string(edits)}}
		}
		want, wantErr := dbhash.Hash(changed)
		got, gotErr := cache.Hash(changed)
		if (wantErr == nil) != (gotErr == nil) || want != got {
			t.Fatalf("cached hash %s (%v), plain hash %s (%v)", got, gotErr, want, wantErr)
		}
	})
}

// editTable returns t, or a copy-on-write edit of it as next says.
func editTable(t any, next func() byte) any {
	switch op := next() % 6; {
	case op == 0:
		return t // shared as it is
	case op == 1:
		return map[string]any{"replaced": int(next())}
	}
	switch x := t.(type) {
	case []any:
		out := append([]any(nil), x...)
		for i := range out {
			out[i] = editRecord(out[i], next)
		}
		if n := next(); n%3 == 0 && len(out) > 0 {
			out = out[1:]
		} else if n%3 == 1 {
			out = append(out, map[string]any{"new": int(n)})
		}
		if len(out) > 1 && next()%2 == 1 {
			out[0], out[len(out)-1] = out[len(out)-1], out[0]
		}
		return out
	case map[string]any:
		out := maps.Clone(x)
		for _, k := range sortedKeys(x) {
			switch next() % 4 {
			case 1:
				delete(out, k)
			case 2:
				out[k+"'"] = x[k] // the same record under another key
			default:
				out[k] = editRecord(x[k], next)
			}
		}
		return out
	}
	return t
}

// editRecord returns r, or an edited deep copy of it.
func editRecord(r any, next func() byte) any {
	if next()%3 != 0 {
		return r
	}
	m, ok := r.(map[string]any)
	if !ok {
		return []any{r}
	}
	out := state.Clone(m).(map[string]any)
	out["edited"] = int(next())
	return out
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
