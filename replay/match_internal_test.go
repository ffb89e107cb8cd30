package replay

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFilterArgs(t *testing.T) {
	args := map[string]any{"summary": "s", "user_id": "u1", "city": "NYC"}
	assert.Equal(t, args, filterArgs(args, nil))
	assert.Equal(t, map[string]any{}, filterArgs(args, []string{}))
	assert.Equal(t, map[string]any{"user_id": "u1"}, filterArgs(args, []string{"user_id"}))
	assert.Equal(t, map[string]any{"user_id": "u1", "city": "NYC"}, filterArgs(args, []string{"user_id", "city"}))
	assert.Equal(t, map[string]any{"nonexistent": nil}, filterArgs(map[string]any{"user_id": "u1"}, []string{"nonexistent"}))
}
