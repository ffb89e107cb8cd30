package agenttest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/agent/agenttest"
)

// A Swap answers 503 until a script is set, then plays the script set
// last, each from its first turn.
func TestSwap(t *testing.T) {
	var sw agenttest.Swap
	srv := httptest.NewServer(&sw)
	defer srv.Close()
	post := func() (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(); code != http.StatusServiceUnavailable || !strings.Contains(body, "no script set") {
		t.Errorf("before Set: %d %q; want 503 no script set", code, body)
	}
	for _, text := range []string{"first script", "second script"} {
		s := sw.Set(agenttest.Turn{Text: text})
		if code, body := post(); code != http.StatusOK || !strings.Contains(body, text) {
			t.Errorf("after Set(%q): %d %q", text, code, body)
		}
		if s.Served() != 1 {
			t.Errorf("%q: the set Server served %d turns; want 1", text, s.Served())
		}
	}
}
