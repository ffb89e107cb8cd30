package pynum_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/internal/pynum"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

func TestNumAtAndNumOrZero(t *testing.T) {
	d := map[string]any{"f": json.Number("1.5"), "none": nil, "zero": "", "s": "x"}
	n, err := pynum.NumAt(d, "missing")
	require.NoError(t, err)
	assert.Equal(t, "0", n.String())
	_, err = pynum.NumAt(d, "none")
	assert.EqualError(t, err, "none: a number was expected, not NoneType")
	for _, key := range []string{"missing", "none", "zero"} {
		n, err = pynum.NumOrZero(d, key)
		require.NoError(t, err)
		assert.Equal(t, "0", n.String(), key)
	}
	n, err = pynum.NumOrZero(d, "f")
	require.NoError(t, err)
	assert.Equal(t, "1.5", n.String())
	_, err = pynum.NumOrZero(d, "s")
	assert.EqualError(t, err, "s: a number was expected, not str")
	var exc *pyvalue.Error
	require.ErrorAs(t, err, &exc)
	assert.Equal(t, "TypeError", exc.Type)

	// A Python int has no bound: an int beyond 64 bits reads exactly
	// (the private Num refused it).
	d["big"] = json.Number("99999999999999999999")
	n, err = pynum.NumAt(d, "big")
	require.NoError(t, err)
	sum, err := n.Add(pyvalue.IntNum(1))
	require.NoError(t, err)
	assert.Equal(t, json.Number("100000000000000000000"), pynum.DBNumber(sum))
}
