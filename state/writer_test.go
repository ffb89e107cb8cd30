package state_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/state"
)

// A list table that is not a list cannot be written row by row.
func TestWriterRowsRefusals(t *testing.T) {
	w := state.NewWriter(map[string]any{"lines": map[string]any{}}, "lines")
	_, err := w.OwnRow("lines", map[string]any{})
	assert.EqualError(t, err, `state: table "lines" is dict, not a list`)
	assert.EqualError(t, w.Append("lines", 1), `state: table "lines" is dict, not a list`)
}
