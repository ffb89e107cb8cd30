package pyschema_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/internal/conformance"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The shipped schema files are the conformance vectors, byte for byte.
func TestShippedSchemasAreTheVectors(t *testing.T) {
	for _, c := range []struct {
		shipped func() ([]byte, error)
		vector  string
	}{
		{func() ([]byte, error) { return tau2data.FS.ReadFile("tool_schemas.jsonl") }, "tool_schemas_tau2.jsonl"},
		{func() ([]byte, error) { return nemodata.FS.ReadFile("tool_schemas.jsonl") }, "nemo/tool_schemas.jsonl"},
	} {
		got, err := c.shipped()
		require.NoError(t, err)
		want, err := os.ReadFile(conformance.Path(t, c.vector))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), c.vector)
	}
}

func TestParseFindCompare(t *testing.T) {
	schemas, err := pyschema.ParseFS(tau2data.FS, "tool_schemas.jsonl")
	require.NoError(t, err)
	require.Len(t, schemas, 73)
	s, err := pyschema.Find(schemas, "tau2_airline", "GetFlightStatusTool", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"flight_number", "date"}, s.Order)

	type params struct {
		FlightNumber string `json:"flight_number"`
		Date         string `json:"date"`
	}
	fn := func(context.Context, *state.Shared, params) (any, error) { return nil, nil }
	tl, err := tool.New(s.Name, s.Description, fn, &tool.Options{Properties: s.Properties})
	require.NoError(t, err)
	assert.NoError(t, pyschema.Compare(tl, s))

	plain, err := tool.New(s.Name, "Get the status of a flight on a date.", fn, nil)
	require.NoError(t, err)
	assert.ErrorContains(t, pyschema.Compare(plain, s), "description")

	_, err = pyschema.Find(schemas, "tau2_airline", "NoSuchTool", nil)
	assert.Error(t, err)
}
