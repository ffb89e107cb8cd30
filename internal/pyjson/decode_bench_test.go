package pyjson_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyjson"
)

// airlineShards reads the tau2 airline DB's shards.
func airlineShards(b *testing.B) (files [][]byte, size int) {
	dir := conformance.Tau2Dir(b, "airline", "db")
	for _, name := range []string{"flights.json", "reservations.json", "users.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += len(data)
	}
	return files, size
}

// BenchmarkDecodeAirline decodes the tau2 airline DB's shards, as
// state.LoadDB does (one after the other here).
func BenchmarkDecodeAirline(b *testing.B) {
	files, size := airlineShards(b)
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

// BenchmarkDecodeAirlineSource decodes them as state.LoadSource does:
// fingerprinted and with their key orders.
func BenchmarkDecodeAirlineSource(b *testing.B) {
	files, size := airlineShards(b)
	for _, ordered := range []bool{false, true} {
		name := "printed"
		if ordered {
			name = "printed+ordered"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					var err error
					if ordered {
						_, _, _, err = pyjson.DecodeOrdered(data, true)
					} else {
						_, _, err = pyjson.DecodePrinted(data)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
