package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/golden"
)

func TestSuiteReport(t *testing.T) {
	var out bytes.Buffer
	failed, err := run(&out, filepath.Join("testdata", "suite"), 6)
	require.NoError(t, err)
	assert.Equal(t, 2, failed)
	golden.Check(t, filepath.Join("testdata", "report.golden"), out.Bytes())
}
