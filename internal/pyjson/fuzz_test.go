package pyjson_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
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

// FuzzDecodeNoAliasing decodes a text and the same text with every \u0000
// escape made \u0001: the two values have the same shape and the same
// types everywhere, and differ only by those characters. A decoder that
// shared one box between a string and a number of the same text would
// change a type on one side only.
func FuzzDecodeNoAliasing(f *testing.F) {
	for _, s := range []string{`[8,"\u00008"]`, `["\u00008",8]`, `{"a":1.5,"b":"\u00001.5","c":[1.5,"1.5"]}`, `"\u0000"`, `[-0,"\u0000-0"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Decode(data)
		if err != nil {
			return
		}
		w, err := pyjson.Decode(nulEscapesToSOH(data))
		if err != nil {
			t.Fatalf("%q decodes, but not with \\u0001 for \\u0000: %v", data, err)
		}
		if !sameBut01(v, w) {
			t.Fatalf("%q: %#v and %#v differ by more than NUL for \\x01", data, v, w)
		}
	})
}

// nulEscapesToSOH makes every \u0000 escape \u0001, leaving alone the
// text "\\u0000" (an escaped backslash, then "u0000").
func nulEscapesToSOH(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 0; i+1 < len(out); i++ {
		if out[i] != '\\' {
			continue
		}
		if bytes.HasPrefix(out[i+1:], []byte("u0000")) {
			out[i+5] = '1'
		}
		i++ // the escaped byte
	}
	return out
}

// sameBut01 reports whether a with its NULs made \x01 is b, type for type.
func sameBut01(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && strings.ReplaceAll(x, "\x00", "\x01") == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[strings.ReplaceAll(k, "\x00", "\x01")]
			if !ok || !sameBut01(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameBut01(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	return a == b
}

// FuzzParseFloat checks ParseFloat against the exact rational value of
// every decimal text (math/big rounds it to nearest, ties to even), on
// strconv's path and on the long path alike. The fuzzer's text is grown
// into long inputs: its digits repeated, and its exponent shifted.
func FuzzParseFloat(f *testing.F) {
	f.Add("9007199254740993", uint16(785), int16(-786))
	f.Add("1", uint16(0), int16(10000))
	f.Add("0.1", uint16(900), int16(-900))
	f.Add("2.4703282292062327", uint16(800), int16(-324))
	f.Add("17976931348623158", uint16(300), int16(292))
	f.Fuzz(func(t *testing.T, mantissa string, zeros uint16, exp int16) {
		if len(mantissa) > 2000 {
			return
		}
		text := mantissa + strings.Repeat("0", int(zeros%3000)) + "1e" + strconv.Itoa(int(exp))
		want, ok := exact(text)
		if !ok {
			return
		}
		got, err := pyjson.ParseFloat(text)
		if math.IsInf(want, 0) != (err != nil) {
			t.Fatalf("%.60q: error %v for %v", text, err, want)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%.60q…: got %v, want %v", text, got, want)
		}
	})
}

// exact rounds a plain decimal text ([-]digits[.digits]e[-]digits) with
// math/big, or reports that the text is not one or is out of its reach.
func exact(text string) (float64, bool) {
	mant, exp, _ := strings.Cut(text, "e")
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	whole, frac, _ := strings.Cut(mant, ".")
	if whole+frac == "" || strings.Trim(whole+frac, "0123456789") != "" {
		return 0, false
	}
	e, err := strconv.Atoi(exp)
	if err != nil {
		return 0, false
	}
	e -= len(frac)
	num, _ := new(big.Int).SetString("0"+whole+frac, 10)
	if num.Sign() == 0 {
		return math.Copysign(0, map[bool]float64{true: -1, false: 1}[neg]), true
	}
	digits := len(num.String())
	if e+digits > 400 {
		return math.Inf(map[bool]int{true: -1, false: 1}[neg]), true
	}
	if e+digits < -400 {
		return math.Copysign(0, map[bool]float64{true: -1, false: 1}[neg]), true
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
	var r big.Rat
	if e >= 0 {
		r.SetInt(num.Mul(num, pow))
	} else {
		r.SetFrac(num, pow)
	}
	f, _ := r.Float64()
	if neg {
		f = -f
	}
	return f, true
}
