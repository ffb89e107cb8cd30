package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// sentRequest is what the tests read of a generateContent request body.
type sentRequest struct {
	SystemInstruction json.RawMessage `json:"systemInstruction"`
	Contents          []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string `json:"text"`
			Thought          bool   `json:"thought"`
			ThoughtSignature string `json:"thoughtSignature"`
			FunctionCall     *struct {
				ID string `json:"id"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				ID string `json:"id"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
}

// sent decodes the body of a request the stand-in received.
func sent(t *testing.T, r agenttest.Request) sentRequest {
	t.Helper()
	var s sentRequest
	require.NoError(t, json.Unmarshal(r.Body, &s))
	return s
}
