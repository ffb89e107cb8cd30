package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A model that calls a tool whenever it may — as the 0.5B real model does
// — ends each bot turn in words with -llm-tool-steps: after that many
// calls the bot asks with tool_choice "none", the turn ends on the text,
// and the other side gets its turn. Unset (pipecat's way), the agent's
// first turn calls tools until the loop's 25-call limit and the scenario
// ends there with the bot's error.
func TestToolStepsEndATurnInWords(t *testing.T) {
	var forbidden atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Tools []struct {
				Function struct{ Name string } `json:"function"`
			} `json:"tools"`
			ToolChoice any `json:"tool_choice"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		call := ""
		for _, tl := range body.Tools {
			if n := tl.Function.Name; !strings.Contains(n, "EndConversation") && !strings.HasPrefix(n, "transfer") {
				call = n
				break
			}
		}
		delta := `{"content":"Let me tell you what I found."}`
		finish := "stop"
		switch {
		case body.ToolChoice == "none":
			forbidden.Add(1)
		case call != "":
			delta = `{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"` + call + `","arguments":"{}"}}]}`
			finish = "tool_calls"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%q}]}\n\ndata: [DONE]\n\n", delta, finish)
	}))
	defer srv.Close()
	const name = "tau2_retail__0"
	for _, tc := range []struct {
		steps    string
		wantStop string
	}{
		{"2", "[TURN_LIMIT]"},
		{"0", "[BOT_ERROR]"},
	} {
		t.Run("-llm-tool-steps "+tc.steps, func(t *testing.T) {
			forbidden.Store(0)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"-scenarios", name, "-out", t.TempDir(), "-llm-url", srv.URL + "/v1", "-llm-model", "m",
				"-llm-tool-steps", tc.steps, "-max-turns", "3", "-timeout", "1m"}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			dir, _, _ := strings.Cut(stdout.String(), ":")
			m := readMetrics(t, dir, name)
			if m["stop_reason"] != tc.wantStop {
				t.Errorf("stop %v (%v); want %s", m["stop_reason"], m["harness_error"], tc.wantStop)
			}
			// Who spoke: the transcript may hold a last turn said after
			// the limit and not relayed, as timing has it; the first
			// three are the agent's words, the user's answer, the agent's.
			spoke := map[string]int{}
			turns, _ := m["turns"].([]any)
			for _, tr := range turns {
				tt, _ := tr.(map[string]any)
				if role, _ := tt["role"].(string); tt["text"] == "Let me tell you what I found." {
					spoke[role]++
				}
			}
			if tc.steps == "0" {
				if forbidden.Load() != 0 || len(turns) != 0 {
					t.Errorf("%d requests forbade calls, %d turns; want none", forbidden.Load(), len(turns))
				}
				if e, _ := m["harness_error"].(string); !strings.Contains(e, "step limit") {
					t.Errorf("harness_error %q: want the loop's step limit", e)
				}
				return
			}
			if m["harness_error"] != nil || forbidden.Load() == 0 || spoke["agent"] < 2 || spoke["user"] < 1 {
				t.Errorf("harness_error %v, %d requests forbade calls, spoke %v; want no error, some, the agent twice and the user", m["harness_error"], forbidden.Load(), spoke)
			}
		})
	}
}
