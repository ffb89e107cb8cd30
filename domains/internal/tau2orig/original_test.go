package tau2orig_test

import (
	"context"
	"github.com/voiceeval/schematools/domains/tau2/tau2tools"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// The shared tools present each domain's original, which differ: the
// transfer tool's description is not the same in airline and retail.
func TestSharedToolsPresentTheirDomainsOriginal(t *testing.T) {
	for _, domain := range []string{"tau2_airline", "tau2_retail"} {
		builds := map[string]func() (tool.Tool, error){
			tau2tools.NameGetUserDetails: func() (tool.Tool, error) { return tau2tools.NewGetUserDetails(domain, nil) },
			tau2tools.NameCalculate:      func() (tool.Tool, error) { return tau2tools.NewCalculate(domain, nil) },
			tau2tools.NameTransferToHumanAgents: func() (tool.Tool, error) {
				return tau2tools.NewTransferToHumanAgents(domain, nil, nil)
			},
		}
		for name, build := range builds {
			tl, err := build()
			require.NoError(t, err, "%s/%s", domain, name)
			orig, err := tau2orig.Original(domain, name)
			require.NoError(t, err)
			assert.NoError(t, pyschema.Compare(tl, orig))
		}
	}
	a, err := tau2orig.Original("tau2_airline", tau2tools.NameTransferToHumanAgents)
	require.NoError(t, err)
	r, err := tau2orig.Original("tau2_retail", tau2tools.NameTransferToHumanAgents)
	require.NoError(t, err)
	assert.NotEqual(t, a.Description, r.Description)
}

func TestOriginalAndNew(t *testing.T) {
	noop := func(context.Context, *state.Shared, struct {
		FlightNumber string `json:"flight_number"`
		Date         string `json:"date"`
	}) (any, error) {
		return nil, nil
	}
	cases := []struct {
		name, domain, tool string
		opts               *tool.Options
		wantErr            string
		wantDescription    string
		wantPropertyText   bool
	}{
		{name: "the original's texts", domain: "tau2_airline", tool: "GetFlightStatusTool",
			wantDescription: "Get the status of a flight on a given date.", wantPropertyText: true},
		{name: "an empty Properties map shows the struct's own schema", domain: "tau2_airline", tool: "GetFlightStatusTool",
			opts: &tool.Options{Properties: map[string]any{}}, wantDescription: "Get the status of a flight on a given date."},
		{name: "unknown tool", domain: "tau2_airline", tool: "NoSuchTool", wantErr: "lists no tool tau2_airline/NoSuchTool"},
		{name: "unknown domain", domain: "airline", tool: "GetFlightStatusTool", wantErr: "lists no tool airline/GetFlightStatusTool"},
		{name: "parameters that do not fit the original", domain: "tau2_airline", tool: "GetReservationDetailsTool",
			wantErr: "Options.Properties names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl, err := tau2tools.New(c.domain, c.tool, noop, c.opts)
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.wantDescription, tl.Description())
			_, described := tl.Properties()["date"].(map[string]any)["description"]
			assert.Equal(t, c.wantPropertyText, described)
			// The checks are the struct's: a missing argument is refused.
			out, err := tl.Execute(context.Background(), map[string]any{"flight_number": "HAT001"})
			require.NoError(t, err)
			assert.IsType(t, tool.ValidationResult{}, out)
		})
	}
}
