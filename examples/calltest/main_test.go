package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden")

func TestSuiteReport(t *testing.T) {
	var out bytes.Buffer
	failed, err := run(&out, filepath.Join("testdata", "suite"))
	require.NoError(t, err)
	assert.Equal(t, 2, failed)
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), out.String())
}
