package pynum

import (
	"encoding/json"
	"math"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// DBNumber returns n as a DB value: a json.Number holding Python's text
// of it ("3", "163.0", "1e+16"), as json.loads would have read it, so
// that it hashes and encodes as the Python original's value does. NaN
// and ±Inf have no JSON token and are returned as float64.
func DBNumber(n pyvalue.Num) any {
	if f, err := n.Float64(); n.IsFloat() && err == nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return f
	}
	return json.Number(n.String())
}

// Less reports Python's n < m ([pyvalue.Num.Cmp]).
func Less(n, m pyvalue.Num) bool {
	c, ok := n.Cmp(m)
	return ok && c < 0
}

// Max returns Python's max(n, m): n, unless m is greater.
func Max(n, m pyvalue.Num) pyvalue.Num {
	if Less(n, m) {
		return m
	}
	return n
}
