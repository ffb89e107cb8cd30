package dbhash_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/pyjson"
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
		text, err := pyjson.Marshal(dbhash.Normalize(v), pyjson.Compact)
		if err != nil {
			t.Fatalf("normalised value does not encode: %v", err)
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
