package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
)

// Every domain gets every dialect's file, each one JSON.
func TestWritesEveryDomainAndDialect(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, run(dir))
	for _, domain := range domains.Names() {
		for _, suffix := range append(dialects, "gemini_removed", "changed") {
			data, err := os.ReadFile(filepath.Join(dir, domain+"."+suffix+".json"))
			require.NoError(t, err)
			assert.True(t, json.Valid(data), "%s.%s", domain, suffix)
		}
	}
	var tools []any
	data, err := os.ReadFile(filepath.Join(dir, "tau2_telecom.openai_strict.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &tools))
	assert.Len(t, tools, 43)
}
