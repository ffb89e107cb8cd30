package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/state"
)

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok)
	return tc.Text
}

// A client on the SDK's in-memory transport lists the tools, calls one,
// calls one with bad arguments and calls one that does not exist.
func TestMCPServer(t *testing.T) {
	ctx := context.Background()
	st := state.New()
	server, err := newServer(st, coffeeDomain(t), "")
	require.NoError(t, err)
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	require.NoError(t, err)
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	require.NoError(t, err)
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"get_menu", "place_order", "order_status", "cancel_order", "EndConversationTool"}, names)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "place_order", Arguments: map[string]any{
		"customer": "Ada", "items": []any{map[string]any{"item_id": "latte", "size": "large", "quantity": 2}},
	}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Contains(t, text(t, res), `"order_id":"ORD-001"`)
	assert.Len(t, st.Actions(), 1, "the call went through the shared state")

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "place_order", Arguments: map[string]any{"customer": 7}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), `"error_type":"validation_error"`)

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: map[string]any{}})
	assert.Error(t, err, "an unknown tool is a protocol error in MCP")

	var out bytes.Buffer
	require.NoError(t, writeSummary(&out, st))
	assert.True(t, strings.HasPrefix(out.String(), `actions: [{"action_type":"place_order"`))
	assert.Contains(t, out.String(), "db_hash: ")
}

func coffeeDomain(t *testing.T) domains.Domain {
	t.Helper()
	d, err := domains.Find("coffee")
	require.NoError(t, err)
	return d
}

// Every domain is served: the server lists the domain's own tools (and
// EndConversationTool), each one callable.
func TestEveryDomainIsServed(t *testing.T) {
	want := map[string]int{"coffee": 5, "tau2_airline": 15, "tau2_retail": 17, "tau2_telecom": 44,
		"eva_airline": 16, "customer_service": 9, "waitlist": 4, "restaurant": 3, "default": 7}
	for _, name := range domains.Names() {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, name)
			ctx := context.Background()
			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			require.Contains(t, want, name, "a new domain: add its tool count")
			assert.Len(t, list.Tools, want[name])
		})
	}
}
