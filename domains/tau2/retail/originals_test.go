package retail_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains/tau2/internal/tau2test"
	"github.com/voiceeval/schematools/domains/tau2/retail"
	"github.com/voiceeval/schematools/tool"
)

// Every tool presents the Python original's schema, from tau2data, and
// its parameters struct checks what that schema presents, with one
// difference, the original's own: cancel_pending_order offers the reason as
// an enum that its argument validation does not enforce — the tool checks
// the reason in its body, after looking the order up ("Invalid reason"),
// so the Go declaration is a plain string, and the enum is presentation
// only (internal/schemacheck pins it as a disagreement).
func TestToolsPresentTheOriginals(t *testing.T) {
	var tools []tau2test.Original
	for _, s := range retail.Specs {
		presented, err := s.Build(nil)
		require.NoError(t, err, s.Key)
		declared, err := s.Build(&tool.Options{Properties: map[string]any{}})
		require.NoError(t, err, s.Key)
		tools = append(tools, tau2test.Original{Presented: presented, Declared: declared})
	}
	tau2test.RequireOriginals(t, retail.Domain, 16, tools, map[string][]string{
		retail.NameCancelPendingOrder: {`reason: {"type":"string"}, the original's {"enum":["no longer needed","ordered by mistake"],"type":"string"}`},
	})
}
