package pyjson_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/voiceeval/schematools/internal/pyjson"
)

var seeds = []string{
	`{}`, `[]`, `null`, `true`, `0`, `-0`, `1.0`, `1e-7`, `1E400`, `12345678901234567890`, `0.1`,
	`{"b":[1,2.5,"x"],"a":{"é":"\u00e9\ud83d\ude00","<>&":"\u007f\u0000\n\t\"\\/"}}`,
	`"\ud800"`, `[NaN,Infinity,-Infinity]`, "\"\xed\xa0\x80\"", `{"a":1,"a":2}`, ` [ 1 , 2 ] `,
}

// FuzzEncodeVsEncodingJSON decodes input with encoding/json and checks that
// pyjson's output is valid ASCII JSON (except where a number overflows to
// Infinity, as in Python) that encoding/json reads back to the same value,
// and that encoding is a fixed point (encode(decode(encode(v))) ==
// encode(v)) under both decoders.
func FuzzEncodeVsEncodingJSON(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return
		}
		for _, style := range []pyjson.Style{pyjson.Compact, pyjson.Default} {
			out, err := pyjson.Marshal(v, style)
			if err != nil {
				t.Fatalf("encoding %#v: %v", v, err)
			}
			if !json.Valid(out) {
				if bytes.Contains(out, []byte("Infinity")) {
					return // a number that overflows a float is Infinity in Python too
				}
				t.Fatalf("invalid JSON %q for input %q", out, data)
			}
			for _, c := range out {
				if c >= 0x7f {
					t.Fatalf("non-ASCII byte in %q", out)
				}
			}
			dec := json.NewDecoder(bytes.NewReader(out))
			dec.UseNumber()
			var back any
			if err := dec.Decode(&back); err != nil {
				t.Fatalf("encoding/json cannot read %q: %v", out, err)
			}
			again, err := pyjson.Marshal(back, style)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("not a fixed point via encoding/json: %q -> %q (%v)", out, again, err)
			}
			mine, err := pyjson.Decode(out)
			if err != nil {
				t.Fatalf("pyjson cannot read its own output %q: %v", out, err)
			}
			again, err = pyjson.Marshal(mine, style)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("not a fixed point via pyjson: %q -> %q (%v)", out, again, err)
			}
		}
	})
}

// FuzzDecode feeds arbitrary bytes to the Python-compatible decoder: it
// never panics, whatever it accepts encoding/json accepts too (unless it
// uses Python's extensions: NaN, Infinity, surrogates, a byte-order mark),
// and its values re-encode to a fixed point.
func FuzzDecode(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Decode(data)
		if err != nil {
			return
		}
		out, err := pyjson.Marshal(v, pyjson.Compact)
		if err != nil {
			t.Fatalf("decoded value of %q does not encode: %v", data, err)
		}
		v2, err := pyjson.Decode(out)
		if err != nil {
			t.Fatalf("cannot decode own output %q: %v", out, err)
		}
		out2, err := pyjson.Marshal(v2, pyjson.Compact)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("not a fixed point: %q -> %q", out, out2)
		}
		extended := bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Infinity")) ||
			bytes.Contains(data, []byte(`\u`)) || bytes.Contains(data, []byte{0xed}) || bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}) ||
			bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) ||
			bytes.IndexByte(data[:min(len(data), 4)], 0) >= 0 // UTF-16 or UTF-32
		if !extended && !json.Valid(data) {
			t.Fatalf("pyjson accepted %q, which is not JSON", data)
		}
	})
}
