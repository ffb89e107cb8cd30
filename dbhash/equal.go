package dbhash

import "github.com/voiceeval/schematools/internal/pyvalue"

// Equal reports whether Python's == holds between two JSON values, as the
// Python original compares DB records and tool arguments: numbers compare
// by exact value across int, float, bool and json.Number (true == 1 ==
// 1.0), strings compare by code points, objects and lists element by
// element. NaN is not equal to NaN — except inside objects and lists,
// where Python compares by identity first and json.loads hands out one
// NaN object for every NaN literal. Values are not normalised first.
func Equal(a, b any) bool { return pyvalue.EqualLoaded(a, b) }
