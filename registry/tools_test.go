package registry_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

type menuOptions struct {
	Menu  string `json:"menu"`
	Limit int    `json:"limit,omitempty"`
}

// menuFactory builds a tool whose result is the scenario's menu.
var menuFactory = registry.Configured(func(d registry.Deps, o menuOptions) (tool.Tool, error) {
	return tool.New("GetMenuTool", "Get the menu.", func(context.Context, *state.Shared, struct{}) (any, error) {
		return map[string]any{"menu": o.Menu}, nil
	}, &tool.Options{State: d.State})
})

func newTools(t *testing.T) *registry.Tools {
	t.Helper()
	r := &registry.Tools{Logger: slog.New(slog.DiscardHandler)}
	require.NoError(t, registry.RegisterHarness(r))
	require.NoError(t, r.Register("restaurant", "GetMenuTool", menuFactory))
	return r
}

// Checklist 51: per-scenario keyword arguments reach the tool.
func TestNewPassesArgs(t *testing.T) {
	r := newTools(t)
	tl, err := r.New("restaurant", "GetMenuTool", registry.Deps{Args: map[string]any{"menu": "Pizza - $10"}})
	require.NoError(t, err)
	res, err := tl.Execute(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"menu": "Pizza - $10"}, res)
	assert.Equal(t, map[string]any{}, tl.Properties())
	assert.Equal(t, []string{}, tl.Required())
}

func TestArgsErrors(t *testing.T) {
	r := newTools(t)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"unknown key", "GetMenuTool", map[string]any{"menus": "x"}, `tool 'GetMenuTool': bad keyword arguments: got an unexpected keyword argument 'menus'`},
		{"wrong type", "GetMenuTool", map[string]any{"menu": 3}, `tool 'GetMenuTool': bad keyword arguments: argument "menu": a JSON number cannot be a string`},
		{"wrong nested type", "GetMenuTool", map[string]any{"limit": "ten"}, `argument "limit": a JSON string cannot be a int`},
		{"plain takes none", "EndConversationTool", map[string]any{"rtvi": nil, "shared_state": 1}, `tool 'EndConversationTool': bad keyword arguments: got unexpected keyword arguments 'rtvi', 'shared_state' (this tool takes none)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.New("restaurant", tt.tool, registry.Deps{Args: tt.args})
			require.ErrorIs(t, err, registry.ErrBadOptions)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// NewSet builds a scenario's tools on one state, and reports every bad
// name and argument at once.
func TestNewSet(t *testing.T) {
	r := newTools(t)
	st, rec := state.New(), &notes{}
	st.StartScenario("", rec)
	set, err := r.NewSet("restaurant", []registry.ToolSpec{
		{Name: "GetMenuTool", Args: map[string]any{"menu": "Soup"}},
		{Name: "EndConversationTool"},
		{Name: "TransferToHumanAgentsTool"},
	}, registry.Deps{State: st})
	require.NoError(t, err)
	assert.Equal(t, []string{"GetMenuTool", "EndConversationTool", "TransferToHumanAgentsTool"}, set.Names(), "the spec's order")

	require.NoError(t, set.Call(context.Background(), "EndConversationTool", nil, func(any) error { return nil }, nil))
	assert.Equal(t, []any{tool.TextMessage{Text: "<exit>The task is finished.</exit>"}}, rec.msgs, "tools share the scenario's state")

	_, err = r.NewSet("restaurant", []registry.ToolSpec{
		{Name: "GetMenuTool", Args: map[string]any{"menus": "typo"}},
		{Name: "GetMenuToool"},
		{Name: "Unknown"},
		{Name: "EndConversationTool", Args: map[string]any{"x": 1}},
	}, registry.Deps{State: st})
	require.Error(t, err)
	for _, want := range []string{
		`tool 'EndConversationTool': bad keyword arguments: got an unexpected keyword argument 'x' (this tool takes none)`,
		`tool 'GetMenuTool': bad keyword arguments: got an unexpected keyword argument 'menus'`,
		`tool 'GetMenuToool' not found in domain 'restaurant' or 'default'`,
		`tool 'Unknown' not found in domain 'restaurant' or 'default'`,
	} {
		assert.ErrorContains(t, err, want)
	}
	assert.ErrorIs(t, err, registry.ErrNotFound)
	assert.ErrorIs(t, err, registry.ErrBadOptions)
}

func TestFactoryFailures(t *testing.T) {
	r := new(registry.Tools)
	boom := errors.New("boom")
	require.NoError(t, r.Register("d", "Fails", func(registry.Deps) (tool.Tool, error) { return nil, boom }))
	require.NoError(t, r.Register("d", "Nil", func(registry.Deps) (tool.Tool, error) { return nil, nil }))
	require.NoError(t, r.Register("d", "Panics", func(registry.Deps) (tool.Tool, error) { panic("bug") }))
	require.NoError(t, r.Register("d", "NilFactory", nil))
	_, err := r.New("d", "Fails", registry.Deps{})
	assert.ErrorIs(t, err, boom)
	_, err = r.NewSet("d", []registry.ToolSpec{{Name: "Nil"}, {Name: "Panics"}, {Name: "NilFactory"}}, registry.Deps{})
	assert.ErrorContains(t, err, "tool 'Nil': factory returned no tool")
	assert.ErrorContains(t, err, "tool 'Panics': factory panicked: bug")
	assert.ErrorContains(t, err, "tool 'NilFactory': nil factory")
}

// Two registry keys that build tools with the same name make a bad set.
func TestNewSetDuplicateToolNames(t *testing.T) {
	r := new(registry.Tools)
	end := registry.Plain(func(registry.Deps) (tool.Tool, error) { return tool.Harness(nil, nil)[0], nil })
	require.NoError(t, r.Register("d", "A", end))
	require.NoError(t, r.Register("d", "B", end))
	_, err := r.NewSet("d", []registry.ToolSpec{{Name: "A"}, {Name: "B"}}, registry.Deps{})
	assert.ErrorIs(t, err, tool.ErrDuplicateTool)
}

// The zero registry (what replaced the package-level Default) is ready
// to use and knows no tool.
func TestZeroRegistryIsReady(t *testing.T) {
	_, err := new(registry.Tools).New("x", "NoSuchTool", registry.Deps{})
	assert.ErrorContains(t, err, "tool 'NoSuchTool' not found")
}

type notes struct{ msgs []any }

func (n *notes) Notify(_ context.Context, m any) error {
	n.msgs = append(n.msgs, m)
	return nil
}
