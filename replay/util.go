package replay

import (
	"bytes"
	"io"
	"slices"
	"strings"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// pyList renders names as a Python list repr: ['a', 'b'].
func pyList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}
