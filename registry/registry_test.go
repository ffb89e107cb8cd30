package registry_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

func logCapture() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

// labelled is a tool that tells which registration built it.
type labelled struct{ name, label string }

func (l labelled) Name() string                                         { return l.name }
func (l labelled) Description() string                                  { return l.label }
func (l labelled) Properties() map[string]any                           { return map[string]any{} }
func (l labelled) Required() []string                                   { return []string{} }
func (l labelled) Execute(context.Context, map[string]any) (any, error) { return l.label, nil }

// factory builds a labelled tool called name.
func factory(name, label string) registry.Factory {
	return func(registry.Deps) (tool.Tool, error) { return labelled{name, label}, nil }
}

// label builds (domain, name) and returns its label.
func label(t *testing.T, r *registry.Tools, domain, name string) string {
	t.Helper()
	tl, err := r.New(domain, name, registry.Deps{})
	require.NoError(t, err)
	return tl.Description()
}

// Checklist 19, 26: the same name in two domains is two entries.
func TestSameNameInTwoDomains(t *testing.T) {
	r := new(registry.Tools)
	require.NoError(t, r.Register("eva_airline", "CancelReservationTool", factory("CancelReservationTool", "eva")))
	require.NoError(t, r.Register("tau2_airline", "CancelReservationTool", factory("CancelReservationTool", "tau2")))
	assert.Equal(t, "eva", label(t, r, "eva_airline", "CancelReservationTool"))
	assert.Equal(t, "tau2", label(t, r, "tau2_airline", "CancelReservationTool"))
}

// Checklist 20: a duplicate in one domain fails, names both registrants and
// leaves the first registration in place.
func TestDuplicateInOneDomain(t *testing.T) {
	r := new(registry.Tools)
	require.NoError(t, r.Register("coffee", "cancel_order", factory("cancel_order", "first")))
	err := r.Register("coffee", "cancel_order", nil)
	require.ErrorIs(t, err, registry.ErrDuplicate)
	assert.Regexp(t, `^tool name collision in domain 'coffee': 'cancel_order' is already registered by `+
		`github.com/voiceeval/schematools/registry_test.TestDuplicateInOneDomain \(registry_test.go:\d+\); `+
		`cannot also register it from github.com/voiceeval/schematools/registry_test.TestDuplicateInOneDomain \(registry_test.go:\d+\)\. `+
		`Rename one of them, or move one to a different domain$`, err.Error())
	assert.Equal(t, "first", label(t, r, "coffee", "cancel_order"), "the first registration stays")
	assert.Equal(t, []string{"cancel_order"}, r.Names("coffee"))
}

// Checklist 21, 24: an empty domain is the default one, and lookups fall
// back to it with a warning naming the domain that fell through.
func TestDefaultFallback(t *testing.T) {
	logger, logs := logCapture()
	r := &registry.Tools{Logger: logger}
	require.NoError(t, r.Register("", "EndConversationTool", factory("EndConversationTool", "end")))
	assert.Equal(t, []string{"EndConversationTool"}, r.Names(state.DefaultDomain))

	assert.Equal(t, "end", label(t, r, "tau2_airline", "EndConversationTool"))
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "tool 'EndConversationTool' not found in domain 'tau2_airline', falling back to 'default'")

	logs.Reset()
	assert.Equal(t, "end", label(t, r, "", "EndConversationTool"))
	assert.Equal(t, "end", label(t, r, "default", "EndConversationTool"))
	assert.Empty(t, logs.String(), "an exact hit logs nothing")
}

// Checklist 22, 23: not found lists what the domain and default hold; an
// unknown domain is called out so a typo is obvious.
func TestNotFound(t *testing.T) {
	r := new(registry.Tools)
	require.NoError(t, r.Register("tau2_airline", "GetUserDetailsTool", factory("GetUserDetailsTool", "")))
	require.NoError(t, r.Register("tau2_airline", "BookReservationTool", factory("BookReservationTool", "")))
	require.NoError(t, r.Register("", "EndConversationTool", factory("EndConversationTool", "")))
	tests := []struct {
		domain, name, want string
	}{
		{"tau2_airline", "DoesNotExistTool",
			"tool 'DoesNotExistTool' not found in domain 'tau2_airline' or 'default'. Available in 'tau2_airline': ['BookReservationTool', 'GetUserDetailsTool']. Available in 'default': ['EndConversationTool']."},
		{"tau2_arline", "GetUserDetailsTool",
			"tool 'GetUserDetailsTool' not found in domain 'tau2_arline' or 'default'. Available in 'tau2_arline': []. Available in 'default': ['EndConversationTool']. Domain 'tau2_arline' is unknown; known domains: ['default', 'tau2_airline']."},
		{"default", "NonexistentToolXYZ",
			"tool 'NonexistentToolXYZ' not found in domain 'default' or 'default'. Available in 'default': ['EndConversationTool']. Available in 'default': ['EndConversationTool']."},
	}
	for _, tt := range tests {
		t.Run(tt.domain+"/"+tt.name, func(t *testing.T) {
			_, err := r.New(tt.domain, tt.name, registry.Deps{})
			require.ErrorIs(t, err, registry.ErrNotFound)
			assert.Equal(t, "registry: "+tt.want, err.Error())
		})
	}
}

func TestInvalidNames(t *testing.T) {
	var r registry.Tools // the zero value is usable
	for _, c := range []struct{ domain, name string }{
		{"coffee", ""}, {"coffee", "has space"}, {"bad domain", "ok"}, {"coffee", "9lives"},
	} {
		err := r.Register(c.domain, c.name, factory("x", ""))
		assert.ErrorIs(t, err, tool.ErrInvalidParams, "%q/%q", c.domain, c.name)
		assert.Empty(t, r.Names(c.domain))
	}
	assert.ErrorIs(t, r.SetHooks("bad domain", hooks.Set{}), tool.ErrInvalidParams)
}

func TestNamesKeepRegistrationOrder(t *testing.T) {
	r := new(registry.Tools)
	for _, n := range []string{"Zeta", "Alpha", "Mid"} {
		require.NoError(t, r.Register("b_domain", n, factory(n, "")))
	}
	require.NoError(t, r.Register("", "Shared", factory("Shared", "")))
	assert.Equal(t, []string{"Zeta", "Alpha", "Mid"}, r.Names("b_domain"), "registration order")
	assert.Equal(t, []string{"Shared"}, r.Names(""))
	assert.Equal(t, []string{}, r.Names("nope"))
}

func TestConcurrentRegisterAndLookup(t *testing.T) {
	r := &registry.Tools{Logger: slog.New(slog.DiscardHandler)}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				name := fmt.Sprintf("t%d_%d", w, i)
				if err := r.Register(fmt.Sprintf("d%d", w%3), name, factory(name, "")); err != nil {
					t.Error(err)
				}
				_, _ = r.New(fmt.Sprintf("d%d", (w+1)%3), name, registry.Deps{})
				_ = r.Names("d0")
				_ = r.Hooks("d0")
			}
		})
		wg.Go(func() { _ = r.SetHooks(fmt.Sprintf("h%d", w), hooks.Set{}) })
	}
	wg.Wait()
	n := 0
	for d := range 3 {
		n += len(r.Names(fmt.Sprintf("d%d", d)))
	}
	assert.Equal(t, 8*200, n)
}

// A domain registers its hooks once, next to its tools; Hooks has no
// default-domain fallback.
func TestHooks(t *testing.T) {
	r := new(registry.Tools)
	assert.Nil(t, r.Hooks("d").Sync, "no hooks: the zero Set")
	set := hooks.Set{Predicates: map[string]hooks.Predicate{"p": func(map[string]any, map[string]any) (bool, error) { return true, nil }}}
	require.NoError(t, r.SetHooks("d", set))
	assert.Contains(t, r.Hooks("d").Predicates, "p")
	assert.ErrorIs(t, r.SetHooks("d", hooks.Set{}), registry.ErrDuplicate)
	assert.Contains(t, r.Hooks("d").Predicates, "p", "the first Set stays")
	require.NoError(t, r.SetHooks("", set))
	assert.Empty(t, r.Hooks("other").Predicates, "no fallback to the default domain")
	assert.Contains(t, r.Hooks("default").Predicates, "p")
}
