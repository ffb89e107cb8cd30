package airline_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/airline"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/tool"
)

// Every tool presents the Python original's schema, from tau2data, and
// its parameters struct checks what that schema presents.
func TestToolsPresentTheOriginals(t *testing.T) {
	var tools []tau2test.Original
	for _, s := range airline.Specs {
		presented, err := s.Build(nil)
		require.NoError(t, err, s.Key)
		declared, err := s.Build(&tool.Options{Properties: map[string]any{}})
		require.NoError(t, err, s.Key)
		tools = append(tools, tau2test.Original{Presented: presented, Declared: declared})
	}
	tau2test.RequireOriginals(t, airline.Domain, 14, tools, nil)
}
