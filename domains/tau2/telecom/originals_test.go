package telecom

import (
	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Every tool presents the Python original's schema, from tau2data, and its
// parameters struct checks what that schema presents.
func TestToolsPresentTheOriginals(t *testing.T) {
	var tools []tau2test.Original
	for _, d := range toolDefs {
		presented, err := d.build(binding{})
		require.NoError(t, err, d.name)
		declared, err := d.build(binding{own: true})
		require.NoError(t, err, d.name)
		tools = append(tools, tau2test.Original{Presented: presented, Declared: declared})
	}
	tau2test.RequireOriginals(t, Domain, 43, tools, nil)
}

// A replay's tools, built lazily, present the originals too, and answer
// malformed arguments with the telecom error type.
func TestLazyToolsPresentTheOriginals(t *testing.T) {
	m, err := Tools(replay.Env{Domain: Domain, Agent: state.New(), User: state.New()})
	require.NoError(t, err)
	require.Len(t, m, 43)
	for name, tl := range m {
		orig, err := tau2orig.Original(Domain, name)
		require.NoError(t, err)
		assert.NoError(t, pyschema.Compare(tl, orig))
		et, ok := tl.(tool.ErrorTyper)
		require.True(t, ok, name)
		assert.Equal(t, ErrorTypeInvalidArguments, et.ErrorType(), name)
	}
}
