package pyjson

import (
	"hash/maphash"
	"math"
	"math/bits"
)

// Fingerprints are 64-bit hashes of decoded values, the ones package
// state takes to prove a shared DB untouched: [DecodePrinted] computes
// them as it decodes, and state computes the same of the Go values with
// these parts. The seed is random per process.

// PrintSeed seeds the fingerprints of this process.
var PrintSeed = maphash.MakeSeed()

// Type tags of fingerprints, so that values of different kinds never
// share one by construction.
const (
	TagNil uint64 = iota + 1
	TagFalse
	TagTrue
	TagString
	TagNumber
	TagFloat
	TagInt
	TagInt64
	TagMap
	TagNilMap
	TagList
	TagNilList
	TagOther
)

// Mix is a bijective finaliser (murmur3's fmix64).
func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Salts are the tags, mixed once.
var Salts = func() (s [TagOther + 1]uint64) {
	for i := range s {
		s[i] = Mix(uint64(i) * 0x9e3779b97f4a7c15)
	}
	return s
}()

// Tagged combines a tag with a 64-bit payload.
func Tagged(tag, v uint64) uint64 { return Mix(v ^ Salts[tag]) }

// StringPrint is a string's fingerprint: its hash is well mixed already,
// the salt keeps it apart from a json.Number of the same text.
func StringPrint(s string) uint64 { return maphash.String(PrintSeed, s) ^ Salts[TagString] }

// NumberPrint is the fingerprint of a json.Number of text s.
func NumberPrint(s string) uint64 { return Tagged(TagNumber, maphash.String(PrintSeed, s)) }

// FloatPrint is a float64's fingerprint.
func FloatPrint(f float64) uint64 { return Tagged(TagFloat, math.Float64bits(f)) }

// KeyHash is the hash of a map key that [EntryPrint] takes.
func KeyHash(key string) uint64 { return maphash.String(PrintSeed, key) }

// EntryPrint combines a map key's hash ([KeyHash]) with its value's
// fingerprint (well mixed), non-linearly, so that swapping values between
// keys changes the sum. A map's fingerprint is [MapPrint] of the sum of
// its entries'.
func EntryPrint(keyHash, v uint64) uint64 { return Mix(keyHash ^ bits.RotateLeft64(v, 29)) }

// ItemPrint combines a list item's fingerprint with its position. A
// list's fingerprint is [ListPrint] of the sum of its items'.
func ItemPrint(i int, v uint64) uint64 { return Mix(v + uint64(i+1)*0x632be59bd9b4e019) }

// MapPrint is the fingerprint of a map of n entries whose entries'
// fingerprints sum to sum.
func MapPrint(sum uint64, n int) uint64 { return Tagged(TagMap, sum^uint64(n)) }

// ListPrint is the fingerprint of a list of n items whose items'
// fingerprints sum to sum.
func ListPrint(sum uint64, n int) uint64 { return Tagged(TagList, sum^uint64(n)) }
