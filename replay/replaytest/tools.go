package replaytest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/tool"
)

// CallSet calls a tool of set by its model-facing name on the live path,
// with raw JSON arguments, and returns what was delivered.
func CallSet(t *testing.T, set *tool.Set, name, args string) any {
	t.Helper()
	var got any
	require.NoError(t, set.CallJSON(context.Background(), name, []byte(args), func(v any) error { got = v; return nil }))
	return got
}
