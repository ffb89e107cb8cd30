package state

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// A Source proves its shared DB untouched with fingerprints: a 64-bit
// hash of each top-level entry, taken when the DB is installed and again
// by Verify. A fingerprint reads every value exactly — the Go type and
// the value, json.Number by its text, so 1, 1.0 and json.Number("1") all
// differ, as do a nil and an empty map — and is independent of map
// iteration order. Two different values collide with probability about
// 2^-64 (the seed is random per process), so a change goes unnoticed only
// by that chance. Taking one reads the DB but allocates nothing, which
// is why a Source keeps fingerprints instead of a pristine deep copy. A
// DB decoded by LoadSource or LoadSourceFS is fingerprinted by the
// decoder as it goes (pyjson.DecodePrinted), from the same parts, so
// only Verify walks it.

// The parts of a fingerprint are pyjson's, which computes the same of a
// DB as it decodes it ([pyjson.DecodePrinted]).
var salts = &pyjson.Salts

func tagged(tag, v uint64) uint64 { return pyjson.Tagged(tag, v) }
func stringPrint(s string) uint64 { return pyjson.StringPrint(s) }
func item(i int, v uint64) uint64 { return pyjson.ItemPrint(i, v) }

const (
	tagNil     = pyjson.TagNil
	tagFalse   = pyjson.TagFalse
	tagTrue    = pyjson.TagTrue
	tagNumber  = pyjson.TagNumber
	tagFloat   = pyjson.TagFloat
	tagInt     = pyjson.TagInt
	tagInt64   = pyjson.TagInt64
	tagMap     = pyjson.TagMap
	tagNilMap  = pyjson.TagNilMap
	tagList    = pyjson.TagList
	tagNilList = pyjson.TagNilList
	tagOther   = pyjson.TagOther
)

// entry combines a map key with its value's fingerprint.
func entry(key string, v uint64) uint64 { return pyjson.EntryPrint(pyjson.KeyHash(key), v) }

// fingerprint returns the fingerprint of a JSON-like value.
func fingerprint(v any) uint64 {
	switch x := v.(type) {
	case string:
		return stringPrint(x)
	case map[string]any:
		if x == nil {
			return salts[tagNilMap]
		}
		var sum uint64
		for k, e := range x {
			var p uint64
			if s, ok := e.(string); ok { // most values: spare the call
				p = stringPrint(s)
			} else {
				p = fingerprint(e)
			}
			sum += entry(k, p)
		}
		return tagged(tagMap, sum^uint64(len(x)))
	case []any:
		if x == nil {
			return salts[tagNilList]
		}
		var sum uint64
		for i, e := range x {
			sum += item(i, fingerprint(e))
		}
		return tagged(tagList, sum^uint64(len(x)))
	case json.Number:
		return pyjson.NumberPrint(string(x))
	case nil:
		return salts[tagNil]
	case bool:
		if x {
			return salts[tagTrue]
		}
		return salts[tagFalse]
	case float64:
		return pyjson.FloatPrint(x)
	case int:
		return tagged(tagInt, uint64(x))
	case int64:
		return tagged(tagInt64, uint64(x))
	}
	return otherPrint(v)
}

// otherPrint fingerprints a value of another type by its type and its
// Go-syntax text (fmt prints maps in key order): enough to tell a
// changed value from an unchanged one, as reflect.DeepEqual would; a
// pointer is its address, so what it points to is not read.
func otherPrint(v any) uint64 {
	return tagged(tagOther, maphash.String(pyjson.PrintSeed, fmt.Sprintf("%T %#v", v, v)))
}

// printChunk is how many records of a large table one goroutine
// fingerprints at once.
const printChunk = 64

// fingerprints returns the fingerprint of every top-level entry of db.
// Large object and list tables are cut into runs of records fingerprinted
// on all cores; their sums add up to the table's fingerprint.
func fingerprints(db map[string]any) map[string]uint64 {
	type part struct {
		table string
		keys  []string // of an object table
		vals  []any    // of a list table
		from  int
		sum   uint64
	}
	out := make(map[string]uint64, len(db))
	var parts []*part
	for k, v := range db {
		switch x := v.(type) {
		case map[string]any:
			if len(x) < 2*printChunk {
				break
			}
			keys := make([]string, 0, len(x))
			for mk := range x {
				keys = append(keys, mk)
			}
			for i := 0; i < len(keys); i += printChunk {
				parts = append(parts, &part{table: k, keys: keys[i:min(i+printChunk, len(keys))]})
			}
			continue
		case []any:
			if len(x) < 2*printChunk {
				break
			}
			for i := 0; i < len(x); i += printChunk {
				parts = append(parts, &part{table: k, vals: x[i:min(i+printChunk, len(x))], from: i})
			}
			continue
		}
		parts = append(parts, &part{table: k, vals: []any{v}, from: -1})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parts)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(parts); i = int(next.Add(1) - 1) {
				p := parts[i]
				switch {
				case p.from < 0: // a whole entry
					p.sum = fingerprint(p.vals[0])
				case p.keys != nil:
					m := db[p.table].(map[string]any)
					for _, k := range p.keys {
						p.sum += entry(k, fingerprint(m[k]))
					}
				default:
					for j, e := range p.vals {
						p.sum += item(p.from+j, fingerprint(e))
					}
				}
			}
		})
	}
	wg.Wait()
	sums := map[string]uint64{}
	for _, p := range parts {
		if p.from < 0 {
			out[p.table] = p.sum
			continue
		}
		sums[p.table] += p.sum
	}
	for k, sum := range sums {
		switch x := db[k].(type) {
		case map[string]any:
			out[k] = tagged(tagMap, sum^uint64(len(x)))
		case []any:
			out[k] = tagged(tagList, sum^uint64(len(x)))
		}
	}
	return out
}
