package replaytest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExactEqual(t *testing.T) {
	one, oneFloat := json.Number("1"), json.Number("1.0")
	assert.True(t, exactEqual(map[string]any{"a": one, "b": "x"}, map[string]any{"b": "x", "a": one}))
	assert.False(t, exactEqual(one, oneFloat), "1 is not 1.0")
	assert.False(t, exactEqual("1", one))
	assert.True(t, strings.HasSuffix(pretty(strings.Repeat("x", 5000)), "…"))
}
