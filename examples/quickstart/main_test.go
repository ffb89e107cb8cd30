package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/session.golden")

// The scripted session is pinned by a golden transcript; go test -update
// rewrites it.
func TestQuickstartTranscript(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	path := filepath.Join("testdata", "session.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), out.String(), "the transcript differs from %s (go test -update accepts it)", path)
}
