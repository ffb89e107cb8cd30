package tau2test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/dbhash"
	"github.com/voiceeval/schematools/internal/replaytest"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Fixture is a replaytest.Fixture with what the tau2 ports' unit tests
// also ask of it: the calls that must fail, and the DB's hash.
type Fixture struct{ *replaytest.Fixture }

// NewFixture builds the tools of domain on a fresh state holding db (no
// DB when db is nil).
func NewFixture(t testing.TB, domain string, tools replay.ToolBuilder, db map[string]any) *Fixture {
	t.Helper()
	st := state.New()
	require.NoError(t, st.Seed(state.Seed{Domain: domain}, nil))
	if db != nil {
		st.SetDB(db)
	}
	m, err := tools(replay.Env{Domain: domain, Agent: st})
	require.NoError(t, err)
	return &Fixture{&replaytest.Fixture{State: st, Tools: m}}
}

// CallErr runs a tool that must fail as the Python original would raise,
// and returns the error.
func (f *Fixture) CallErr(t testing.TB, key string, args map[string]any) error {
	t.Helper()
	tl, ok := f.Tools[key]
	require.True(t, ok, "no tool %s", key)
	out, err := replay.Invoke(context.Background(), tl, args)
	require.Error(t, err, "%s(%v) gave %v", key, args, out)
	return err
}

// Hash returns the hash of the fixture's DB.
func (f *Fixture) Hash(t testing.TB) string {
	t.Helper()
	h, err := dbhash.Hash(f.State.Snapshot())
	require.NoError(t, err)
	return h
}

// CallSet calls a tool of set by its model-facing name on the live path,
// with raw JSON arguments, and returns what was delivered.
func CallSet(t *testing.T, set *tool.Set, name, args string) any {
	t.Helper()
	var got any
	require.NoError(t, set.CallJSON(context.Background(), name, []byte(args), func(v any) error { got = v; return nil }, nil))
	return got
}
