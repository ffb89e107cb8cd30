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

var update = flag.Bool("update", false, "rewrite testdata/session.golden")

// The scripted session is pinned by a golden transcript.
func TestQuickstartTranscript(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	golden := filepath.Join("testdata", "session.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), out.String())
}
