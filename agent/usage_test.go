package agent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi"
)

// Usage converts to rtvi.Usage field for field, Missing included;
// the zero Usage is a reported zero.
func TestUsageConvertsToTokenUsage(t *testing.T) {
	n := 4
	for _, u := range []agent.Usage{
		{},
		{PromptTokens: 9, CompletionTokens: 4, TotalTokens: 13, CacheReadInputTokens: &n},
		{Missing: true},
	} {
		got := rtvi.Usage(u)
		assert.Equal(t, u.Missing, got.Missing)
		assert.Equal(t, u.PromptTokens, got.PromptTokens)
		assert.Equal(t, u.CacheReadInputTokens, got.CacheReadInputTokens)
	}
	assert.False(t, agent.Usage{}.Missing, "the zero Usage is reported")
}
