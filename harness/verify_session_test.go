package harness

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/rtvi"
)

// A bot that does none of the work and reports the expected db_hash,
// with three fake metrics entries to pass the turn gate, is scored
// successful as NeMo scores it — and flagged: its summary is not
// reproducible from its actions. The gold bots of the same scenario
// verify.
func TestVerifyFlagsAHashWithoutTheWork(t *testing.T) {
	root := dataRoot(t)
	sc := scenario(t, "tau2_airline__7")
	ref, _ := tau2Reference(t, "tau2_airline")
	ref.Clock = nil
	o := testOptions()
	o.Verify = ref

	gold := goldCalls(t, "tau2_airline", "7", false)
	ag := newTestBot(t, root, agenttest.GoldTurns(gold, "EndConversationTool")...)
	res, err := RunScenario(runCtx(t), sc, ag.URL, newUser(t, root).URL, o)
	if err != nil {
		t.Fatalf("gold: %v", err)
	}
	if m := res.Result.Metrics; m.IsSuccessful != true || m.Verification == nil || m.Verification.Value() != true {
		t.Fatalf("gold: successful %v, verification %+v", m.IsSuccessful, m.Verification)
	}

	// One line of conversation, then the end call.
	lazy := newTestBot(t, root, agenttest.GoldTurns(nil, "EndConversationTool")...)
	em := &rtvi.Emitter{Send: lazy.send}
	lazy.hook = func(_ *websocket.Conn, msg []byte) bool {
		switch {
		case strings.Contains(string(msg), "send-text"):
			for range 3 {
				_ = em.LLMResponse(context.Background(), rtvi.Usage(agent.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}))
			}
			return false // the bot answers the text itself
		case strings.Contains(string(msg), "get_scenario_summary"):
			f, _ := rtvi.DecodeFrame(msg)
			var m struct{ ID string }
			_ = json.Unmarshal([]byte(f.Message.Data), &m)
			lazy.write(context.Background(), rtvi.MessageFrameBytes([]byte(`{"label": "rtvi-ai", "type": "server-response", "id": "`+m.ID+
				`", "data": {"t": "get_scenario_summary", "d": {"actions": [], "db_hash": "`+sc.ExpectedDBHash+`"}}}`)))
			return true
		}
		return false
	}
	res, err = RunScenario(runCtx(t), sc, lazy.URL, newUser(t, root).URL, o)
	if err != nil {
		t.Fatalf("lazy bot: %v", err)
	}
	m := res.Result.Metrics
	if m.IsSuccessful != true || !m.DBStateMatch || m.InsufficientAgentTurns {
		t.Fatalf("lazy bot: NeMo's verdict changed: successful %v db %v insufficient %v", m.IsSuccessful, m.DBStateMatch, m.InsufficientAgentTurns)
	}
	checkVerdict(t, m.Verification, false, "agent "+notReproducible+": replayed hash ", "reported "+sc.ExpectedDBHash)
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"summary_verified": false`) || !strings.Contains(string(b), `"is_successful": true`) {
		t.Errorf("metrics.json:\n%s", b)
	}
	t.Logf("lazy bot: %s", m.Verification.Reason)
}
