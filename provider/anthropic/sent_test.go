package anthropic_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// sentRequest is what the tests read of a Messages API request body.
type sentRequest struct {
	MaxTokens int             `json:"max_tokens"`
	System    json.RawMessage `json:"system"`
	Messages  []struct {
		Role    string `json:"role"`
		Content []struct {
			Type      string `json:"type"`
			Text      string `json:"text"`
			Signature string `json:"signature"`
		} `json:"content"`
	} `json:"messages"`
}

// sent decodes the body of a request the stand-in received.
func sent(t *testing.T, r agenttest.Request) sentRequest {
	t.Helper()
	var s sentRequest
	require.NoError(t, json.Unmarshal(r.Body, &s))
	return s
}
