package registry_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/registry"
)

func logCapture() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

// Checklist 19, 26: the same name in two domains is two entries.
func TestSameNameInTwoDomains(t *testing.T) {
	r := registry.New[string]()
	require.NoError(t, r.Register("eva_airline", "CancelReservationTool", "eva"))
	require.NoError(t, r.Register("tau2_airline", "CancelReservationTool", "tau2"))
	got, err := r.Lookup("eva_airline", "CancelReservationTool")
	require.NoError(t, err)
	assert.Equal(t, "eva", got)
	got, err = r.Lookup("tau2_airline", "CancelReservationTool")
	require.NoError(t, err)
	assert.Equal(t, "tau2", got)
}

// Checklist 20: a duplicate in one domain fails, names both registrants and
// leaves the first registration in place.
func TestDuplicateInOneDomain(t *testing.T) {
	r := registry.NewTools()
	f := registry.Plain(nil)
	require.NoError(t, r.Register("coffee", "cancel_order", f))
	err := r.Register("coffee", "cancel_order", nil)
	require.ErrorIs(t, err, registry.ErrDuplicate)
	assert.Regexp(t, `^tool name collision in domain 'coffee': 'cancel_order' is already registered by `+
		`github.com/voiceeval/schematools/registry_test.TestDuplicateInOneDomain \(registry_test.go:\d+\); `+
		`cannot also register it from github.com/voiceeval/schematools/registry_test.TestDuplicateInOneDomain \(registry_test.go:\d+\)\. `+
		`Rename one of them, or move one to a different domain$`, err.Error())
	got, err := r.Lookup("coffee", "cancel_order")
	require.NoError(t, err)
	assert.NotNil(t, got, "the first registration stays")
	assert.Equal(t, []string{"cancel_order"}, r.Names("coffee"))

	r2 := registry.New[int](registry.WithKind("predicate"))
	r2.MustRegister("d", "x", 1)
	assert.Panics(t, func() { r2.MustRegister("d", "x", 2) })
}

// Checklist 21, 24: an empty domain is the default one, and lookups fall
// back to it with a warning naming the domain that fell through.
func TestDefaultFallback(t *testing.T) {
	logger, logs := logCapture()
	r := registry.New[string](registry.WithLogger(logger), registry.WithKind("tool"))
	require.NoError(t, r.Register("", "EndConversationTool", "end"))
	assert.Equal(t, []string{"EndConversationTool"}, r.Names(registry.DefaultDomain))

	got, res, err := r.Resolve("tau2_airline", "EndConversationTool")
	require.NoError(t, err)
	assert.Equal(t, "end", got)
	assert.Equal(t, registry.Resolved{Domain: "default", Name: "EndConversationTool", Fallback: true}, res)
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "tool 'EndConversationTool' not found in domain 'tau2_airline', falling back to 'default'")

	logs.Reset()
	_, res, err = r.Resolve("", "EndConversationTool")
	require.NoError(t, err)
	assert.False(t, res.Fallback)
	assert.Empty(t, logs.String(), "an exact hit logs nothing")
}

// Checklist 22, 23: not found lists what the domain and default hold; an
// unknown domain is called out so a typo is obvious.
func TestNotFound(t *testing.T) {
	r := registry.New[int](registry.WithKind("tool"))
	require.NoError(t, r.Register("tau2_airline", "GetUserDetailsTool", 1))
	require.NoError(t, r.Register("tau2_airline", "BookReservationTool", 2))
	require.NoError(t, r.Register("", "EndConversationTool", 3))
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
			_, err := r.Lookup(tt.domain, tt.name)
			require.ErrorIs(t, err, registry.ErrNotFound)
			assert.Equal(t, tt.want, err.Error())
			var nf *registry.NotFoundError
			require.ErrorAs(t, err, &nf)
			assert.Equal(t, tt.name, nf.Name)
		})
	}
}

func TestInvalidNames(t *testing.T) {
	var r registry.Registry[int] // the zero value is usable
	for _, c := range []struct{ domain, name string }{
		{"coffee", ""}, {"coffee", "has space"}, {"bad domain", "ok"}, {"coffee", "9lives"},
	} {
		err := r.Register(c.domain, c.name, 1)
		assert.ErrorIs(t, err, registry.ErrInvalidName, "%q/%q", c.domain, c.name)
	}
	assert.Empty(t, r.All())
	assert.Empty(t, r.Domains())
}

func TestListing(t *testing.T) {
	r := registry.New[int]()
	for i, n := range []string{"Zeta", "Alpha", "Mid"} {
		require.NoError(t, r.Register("b_domain", n, i))
	}
	require.NoError(t, r.Register("a_domain", "One", 0))
	require.NoError(t, r.Register("", "Shared", 0))
	assert.Equal(t, []string{"Zeta", "Alpha", "Mid"}, r.Names("b_domain"), "registration order")
	assert.Equal(t, []string{}, r.Names("nope"))
	assert.Equal(t, []string{"a_domain.One", "b_domain.Alpha", "b_domain.Mid", "b_domain.Zeta", "default.Shared"}, r.All())
	assert.Equal(t, []string{"a_domain", "b_domain", "default"}, r.Domains())
}

func TestConcurrentRegisterAndLookup(t *testing.T) {
	r := registry.New[int](registry.WithLogger(slog.New(slog.DiscardHandler)))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				name := fmt.Sprintf("t%d_%d", w, i)
				if err := r.Register(fmt.Sprintf("d%d", w%3), name, i); err != nil {
					t.Error(err)
				}
				_, _ = r.Lookup(fmt.Sprintf("d%d", (w+1)%3), name)
				_ = r.Names("d0")
				_ = r.All()
			}
		})
	}
	wg.Wait()
	assert.Len(t, r.All(), 8*200)
}

func TestGetHasNoFallback(t *testing.T) {
	r := registry.New[int]()
	require.NoError(t, r.Register("", "shared", 1))
	require.NoError(t, r.Register("d", "own", 2))
	v, ok := r.Get("d", "own")
	assert.True(t, ok)
	assert.Equal(t, 2, v)
	_, ok = r.Get("d", "shared")
	assert.False(t, ok, "Get never falls back to default")
	v, ok = r.Get("", "shared")
	assert.True(t, ok)
	assert.Equal(t, 1, v)
}
