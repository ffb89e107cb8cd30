package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/golden"
)

func TestSuiteReport(t *testing.T) {
	var out bytes.Buffer
	failed, err := runScripted(&out, filepath.Join("testdata", "suite"), 6)
	require.NoError(t, err)
	assert.Equal(t, 2, failed)
	golden.Check(t, filepath.Join("testdata", "report.golden"), out.Bytes())
}

// With no -llm-model the command plays the scripted agent: the suite
// directory is its one argument, the report is written, and a test that
// did not pass every run gives exit status 1.
func TestNoModelIsTheScriptedAgent(t *testing.T) {
	var out, errOut bytes.Buffer
	code, err := run(context.Background(), []string{"-repeat", "2", filepath.Join("testdata", "suite")}, &out, &errOut, noEnv)
	require.NoError(t, err, errOut.String())
	assert.Equal(t, 1, code, "the script fails some runs")
	assert.Contains(t, out.String(), "pass^2")
	code, err = run(context.Background(), []string{"-repeat", "0", "a", "b"}, &out, &errOut, noEnv)
	assert.Error(t, err)
	assert.Equal(t, 2, code)
}
