package pyjson_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// BenchmarkDecodeAirline decodes the tau2 airline DB's shards, as
// state.LoadDB does (one after the other here).
func BenchmarkDecodeAirline(b *testing.B) {
	dir := conformance.Tau2Dir(b, "airline", "db")
	var files [][]byte
	size := 0
	for _, name := range []string{"flights.json", "reservations.json", "users.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range files {
			if _, err := pyjson.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}
