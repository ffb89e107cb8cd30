package calltest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/calltest"
)

// RunSuite reports pass^k with k = min(3, Runs) unless K is given, and
// refuses a K larger than the runs, whose pass^k would read 0 whatever
// the runs did.
func TestRunSuiteK(t *testing.T) {
	agent := calltest.Agent(func(context.Context, []calltest.Turn) (calltest.Step, error) {
		return calltest.Step{Calls: []calltest.Call{call("book", `{"party_size": 6}`)}}, nil
	})
	tests := []calltest.Test{one("book", calltest.Equals("party_size", 6))}
	for _, tt := range []struct {
		runs, k int
		want    string
	}{
		{2, 0, "2/2 passed  pass^2 1.00"},
		{1, 0, "1/1 passed  pass^1 1.00"},
		{5, 0, "5/5 passed  pass^3 1.00"},
		{5, 5, "5/5 passed  pass^5 1.00"},
		{2, 1, "2/2 passed  pass^1 1.00"},
	} {
		var out bytes.Buffer
		notPassed, err := calltest.RunSuite(context.Background(), &out, agent, tests, calltest.SuiteOptions{Runs: tt.runs, K: tt.k})
		require.NoError(t, err)
		assert.Zero(t, notPassed)
		assert.True(t, strings.Contains(out.String(), tt.want), "runs %d k %d: %s", tt.runs, tt.k, out.String())
	}
	var out bytes.Buffer
	_, err := calltest.RunSuite(context.Background(), &out, agent, tests, calltest.SuiteOptions{Runs: 2, K: 3})
	require.ErrorIs(t, err, calltest.ErrInvalidK)
	assert.Contains(t, err.Error(), "pass^3 of 2 run(s)")
	assert.Empty(t, out.String(), "refused before any run")
}
