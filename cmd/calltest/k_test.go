package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With fewer than three runs per test, pass^k is over the runs there
// are: -repeat 2 reports pass^2, not a pass^3 of 0.00.
func TestFewRunsReportPassHatRuns(t *testing.T) {
	var out bytes.Buffer
	_, err := runScripted(&out, filepath.Join("testdata", "suite"), 2)
	require.NoError(t, err)
	assert.Contains(t, out.String(), "2/2 passed  pass^2 1.00")
	assert.NotContains(t, out.String(), "pass^3")
}
