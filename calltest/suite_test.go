package calltest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
)

func TestLoadTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "cmd", "calltest", "testdata", "tools.json"))
	require.NoError(t, err)
	tools, err := calltest.LoadTools(data)
	require.NoError(t, err)
	require.Len(t, tools, 3)
	assert.Equal(t, "book_table", tools[0].Name())
	assert.Equal(t, []string{"party_size", "time"}, tools[0].Required())
	_, err = tools[0].Execute(context.Background(), nil)
	assert.ErrorIs(t, err, calltest.ErrNotExecuted)

	for _, bad := range []string{
		`{}`,
		`[{"name": "a"}]`,
		`[{"name": "a b", "description": "d"}]`,
		`[{"name": "a", "description": "d"}, {"name": "a", "description": "d"}]`,
		`[{"name": "a", "description": "d", "parameters": {"type": "array"}}]`,
		`[{"name": "a", "description": "d", "parameters": {"type": "object", "required": ["x"]}}]`,
	} {
		_, err := calltest.LoadTools([]byte(bad))
		assert.Error(t, err, bad)
	}
}

func TestLoadSuite(t *testing.T) {
	tests, err := calltest.LoadSuite(filepath.Join("..", "cmd", "calltest", "testdata", "suite"))
	require.NoError(t, err)
	require.Len(t, tests, 3)
	assert.Equal(t, "books a table for six", tests[0].Name)
	_, err = calltest.LoadSuite(t.TempDir())
	assert.ErrorContains(t, err, "no *.json test")
}
