package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Unless -k is given, pass^k is over min(3, -repeat) runs: -repeat 2
// reports pass^2, where it reported "2/2 passed, pass^3 0.00".
func TestKDefaultsToTheRuns(t *testing.T) {
	good := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-repeat", "2"}, "2/2 passed  pass^2 1.00"},
		{[]string{"-repeat", "1"}, "1/1 passed  pass^1 1.00"},
		{[]string{"-repeat", "4"}, "4/4 passed  pass^3 1.00"},
		{[]string{"-repeat", "4", "-k", "4"}, "4/4 passed  pass^4 1.00"},
	} {
		_, url := standIn(t, "openai", good, good, good, good)
		var out bytes.Buffer
		code, err := run(context.Background(), repo(append([]string{"-llm-url", url, "-llm-model", "m", "-workers", "1", "-suite", oneTest(t, "cancel_reason.json")}, tt.args...)...), &out, io.Discard, keys)
		require.NoError(t, err)
		assert.Equal(t, 0, code, out.String())
		assert.Contains(t, out.String(), tt.want, tt.args)
	}
}

// Flags out of range are usage errors: a -k above -repeat, whose pass^k
// would read 0 whatever the runs did, a -llm-timeout of 0 or less, a
// negative -llm-max-tokens.
func TestLimitFlagsRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-repeat", "2", "-k", "3"}, "-k 3 is more than -repeat 2"},
		{[]string{"-k", "-1"}, "-k at least 1"},
		{[]string{"-llm-timeout", "0s"}, "-llm-timeout must be positive"},
		{[]string{"-llm-timeout", "-1s"}, "-llm-timeout must be positive"},
		{[]string{"-llm-max-tokens", "-1"}, "-llm-max-tokens must be positive, or 0"},
	} {
		code, err := run(context.Background(), append([]string{"-llm-model", "m"}, tt.args...), &bytes.Buffer{}, io.Discard, noEnv)
		assert.Equal(t, 2, code, tt.args)
		require.ErrorIs(t, err, errUsage, tt.args)
		assert.Contains(t, err.Error(), tt.msg)
	}
	c, err := parse([]string{"-llm-model", "m"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 60*time.Second, c.timeout)
	assert.Zero(t, c.maxTokens)
	assert.Zero(t, c.k, "unset: min(3, -repeat)")
}

// -llm-max-tokens reaches each adapter's request as its field; unset, only
// Anthropic, which requires it, sends one (its adapter's 4096).
func TestMaxTokensSent(t *testing.T) {
	field := func(t *testing.T, dialect string, body []byte) any {
		var b map[string]any
		require.NoError(t, json.Unmarshal(body, &b))
		switch dialect {
		case "anthropic":
			return b["max_tokens"]
		case "gemini":
			gc, _ := b["generationConfig"].(map[string]any)
			return gc["maxOutputTokens"]
		}
		return b["max_completion_tokens"]
	}
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			for _, tt := range []struct {
				args []string
				want any
			}{{nil, nil}, {[]string{"-llm-max-tokens", "64"}, float64(64)}} {
				good := call("cancel_order", `{"order_id": "ORD-001", "reason": "took too long"}`)
				s, url := standIn(t, p, good)
				var out bytes.Buffer
				code, err := run(context.Background(), repo(append([]string{"-provider", p, "-llm-url", url, "-llm-model", "m", "-repeat", "1", "-suite", oneTest(t, "cancel_reason.json")}, tt.args...)...), &out, io.Discard, keys)
				require.NoError(t, err)
				require.Equal(t, 0, code, out.String())
				reqs := s.Requests()
				require.Len(t, reqs, 1)
				want := tt.want
				if want == nil && p == "anthropic" {
					want = float64(4096)
				}
				assert.Equal(t, want, field(t, p, reqs[0].Body), "%v %s", tt.args, reqs[0].Body)
			}
		})
	}
}

// A server that does not answer fails the run at -llm-timeout, reported as
// the run's error, on each adapter (no retries here).
func TestHangingServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the server notices the client leave
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			url := srv.URL
			if p == "openai" {
				url += "/v1"
			}
			var out bytes.Buffer
			start := time.Now()
			code, err := run(context.Background(), repo("-provider", p, "-llm-url", url, "-llm-model", "m", "-repeat", "1", "-retries", "0",
				"-llm-timeout", "200ms", "-suite", oneTest(t, "cancel_reason.json")), &out, io.Discard, keys)
			took := time.Since(start)
			require.NoError(t, err)
			assert.Equal(t, 1, code, out.String())
			assert.Contains(t, out.String(), "0/1 passed")
			assert.Contains(t, out.String(), "1 error(s)")
			assert.GreaterOrEqual(t, took, 200*time.Millisecond)
			assert.Less(t, took, 10*time.Second)
		})
	}
}
