// Package pynum reads and writes the numbers of the ported domains' DBs
// as the Python originals do (pyvalue.Num: int or float, arbitrary
// precision), for the tau2 and eva_airline packs.
package pynum

import (
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// NumAt is Python's d.get(key, 0) read as a number: a missing key is the
// int 0; a value that is not a number is a TypeError naming the key.
func NumAt(d map[string]any, key string) (pyvalue.Num, error) {
	v, ok := d[key]
	if !ok {
		return pyvalue.IntNum(0), nil
	}
	return numIn(key, v)
}

// NumOrZero is Python's (d.get(key) or 0) read as a number: a missing or
// falsy value (None, 0, "", an empty list) is the int 0; any other value
// that is not a number is a TypeError naming the key.
func NumOrZero(d map[string]any, key string) (pyvalue.Num, error) {
	v := d[key]
	if !pyvalue.Truthy(v) {
		return pyvalue.IntNum(0), nil
	}
	return numIn(key, v)
}

func numIn(key string, v any) (pyvalue.Num, error) {
	n, ok := pyvalue.NumOf(v)
	if !ok {
		return n, pyvalue.StrError{Exc: pyvalue.Raise("TypeError", "%s: a number was expected, not %s", key, pyvalue.TypeName(v))}
	}
	return n, nil
}
