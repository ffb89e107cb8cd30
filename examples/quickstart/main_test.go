package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/golden"
)

// The scripted session is pinned by a golden transcript.
func TestQuickstartTranscript(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	golden.Check(t, filepath.Join("testdata", "session.golden"), out.Bytes())
}
