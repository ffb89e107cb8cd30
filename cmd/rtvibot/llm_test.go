package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/replay"
	"github.com/voiceeval/schematools/rtvi/bridge"
	"github.com/voiceeval/schematools/rtvi/rtviws"
)

// llmBot is the command's bot, in-process, on a loopback port, with its
// own stand-in.
type llmBot struct {
	url     string
	standin *agenttest.Swap
	brain   *rtviws.AgentBrain
}

func startLLMBot(t *testing.T) *llmBot {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, domains.WriteDataRoot(dir))
	h := &agenttest.Swap{}
	llm := httptest.NewServer(h)
	t.Cleanup(llm.Close)
	model := openai.New("standin", &openai.Options{BaseURL: llm.URL + "/v1", APIKey: "EMPTY", MaxRetries: -1})
	srv, brain, err := newBot(dir, model, rtviws.Timeouts{}, false, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	ln, err := rtviws.ListenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second} // generous: the machine may be loaded, under -race
	go hs.Serve(ln)                                                       //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.CloseConnections(); hs.Close() })
	return &llmBot{url: "ws://" + ln.Addr().String(), standin: h, brain: brain}
}

// played is what the bridge saw of one scenario.
type played struct {
	hash    string
	exit    string
	tokens  []bridge.Usage
	history string
	calls   int // requests the stand-in answered
}

// play drives one scenario as NeMo's bridge does — a prepare connection
// (client-ready, reset, update_system_prompt, apply_initialization), then
// a run connection (client-ready, the "Hello" kickoff, the conversation
// until <exit> and the model's last response, get_context_history,
// get_scenario_summary) — with the stand-in playing script.
func (b *llmBot) play(ctx context.Context, domain, prompt, tools string, script []agenttest.Turn) (played, error) {
	var p played
	s := b.standin.Set(script...)
	prep, err := bridge.Dial(ctx, b.url, nil)
	if err != nil {
		return p, err
	}
	defer prep.Close()
	if err := prep.Reset(ctx); err != nil {
		return p, err
	}
	if err := prep.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: prompt, Tools: tools, ToolDomain: domain}); err != nil {
		return p, err
	}
	if err := prep.ApplyInitialization(ctx, bridge.Init{Side: "agent", Domain: domain, SharedStateInit: map[string]any{"db_path": domain + "/db.json"}}); err != nil {
		return p, err
	}
	prep.Close()

	var mu sync.Mutex
	rec := &bridge.Recorder{Agent: true}
	run, err := bridge.Dial(ctx, b.url, &bridge.Options{OnEvent: func(e bridge.Event) {
		rec.Handle(e)
		if e.Kind == bridge.KindMetrics {
			mu.Lock()
			p.tokens = append(p.tokens, e.Tokens...)
			mu.Unlock()
		}
	}})
	if err != nil {
		return p, err
	}
	defer run.Close()
	if err := run.SendText(ctx, "Hello"); err != nil {
		return p, err
	}
	// The bridge stops at <exit> (then waits 0.5 s); the bot's last model
	// call, after the end tool's result, comes before the pull is read.
	for {
		mu.Lock()
		n := len(p.tokens)
		mu.Unlock()
		_, exited := rec.Exit()
		if exited && n >= len(script) {
			break
		}
		select {
		case <-ctx.Done():
			return p, fmt.Errorf("no <exit> and %d model calls (%d tokens entries so far): %w", len(script), n, ctx.Err())
		case <-run.Done():
			return p, fmt.Errorf("run connection closed: %w", run.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	hist, err := run.GetContextHistory(ctx)
	if err != nil {
		return p, err
	}
	var ok bool
	if p.history, ok = hist.Reply["context"].(string); !ok {
		return p, fmt.Errorf("get_context_history: no str context in %v", hist.Reply)
	}
	sum, err := run.GetScenarioSummary(ctx, false)
	if err != nil {
		return p, err
	}
	if sum.DBHash != nil {
		p.hash = *sum.DBHash
	}
	p.exit, _ = rec.Exit()
	mu.Lock()
	p.tokens = append([]bridge.Usage(nil), p.tokens...)
	mu.Unlock()
	p.calls = s.Served()
	return p, nil
}

// expectations replays tasks, a domain's (tau2script's), as the replay
// CLI does and returns each task's final DB hash and the tool spec NeMo
// sends for the domain (replayTasks). The replay runs once per domain
// (llmReplays) and its results are read-only.
func expectations(t *testing.T, name string, tasks []replay.Task) (map[string]string, string) {
	t.Helper()
	r, err := llmReplays.get(name, func() (domainReplay, error) {
		d, err := domains.Find(name)
		if err != nil {
			return domainReplay{}, err
		}
		return replayTasks(d, tasks)
	})
	require.NoError(t, err)
	for _, task := range tasks {
		require.Contains(t, r.want, task.ID, "%s: the tasks replayed", name)
	}
	return r.want, r.tools
}

// llmReplays are the domains' replays of tau2script's tasks, by name.
var llmReplays memo[domainReplay]

// bots is how many bots play a domain's tasks at once.
const bots = 4

// Every tau2 airline and retail task, its gold calls played by the
// stand-in one per response (and, in the batch variant, each run of
// consecutive reads in one response), reaches the replay's final DB hash
// through the LLM bot, driven as NeMo's bridge drives a bot; the bot ends
// with a clean exit, and each model call is one tokens entry carrying the
// stand-in's usage (at least 3: NeMo's --min-agent-turns).
func TestLLMBotReachesTheReplayHash(t *testing.T) {
	for _, name := range []string{"tau2_airline", "tau2_retail"} {
		for _, batch := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/batch=%v", name, batch), func(t *testing.T) {
				t.Parallel()
				d, err := tau2script.Load(name)
				require.NoError(t, err)
				want, tools := expectations(t, name, d.Tasks)
				ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
				defer cancel()
				jobs := make(chan replay.Task)
				var wg sync.WaitGroup
				for range bots {
					bot := startLLMBot(t)
					wg.Add(1)
					go func() {
						defer wg.Done()
						for task := range jobs {
							script, err := d.Script(task, tau2script.Options{BatchReads: batch})
							if !assert.NoError(t, err, "task %s", task.ID) {
								continue
							}
							p, err := bot.play(ctx, name, "You are a "+name+" agent.", tools, script)
							if !assert.NoError(t, err, "task %s", task.ID) {
								continue
							}
							assert.Equal(t, want[task.ID], p.hash, "task %s", task.ID)
							assert.Equal(t, wantExit(script), p.exit, "task %s: a clean exit", task.ID)
							assert.Equal(t, len(script), p.calls, "task %s: every scripted response was asked for", task.ID)
							wantTokens := make([]bridge.Usage, len(script))
							for i := range script {
								u := tau2script.Usage(i)
								wantTokens[i] = bridge.Usage{Calls: 1, Prompt: int64(u.PromptTokens), Completion: int64(u.CompletionTokens)}
							}
							assert.Equal(t, wantTokens, p.tokens, "task %s: one tokens entry per model call, the stand-in's usage", task.ID)
							assert.GreaterOrEqual(t, len(p.tokens), tau2script.MinResponses, "task %s", task.ID)
							assert.True(t, strings.HasPrefix(p.history, "[{'role': 'system', 'content': 'You are a "+name), "task %s: %.80s", task.ID, p.history)
							assert.Contains(t, p.history, "'name': 'EndConversationTool'", "task %s", task.ID)
						}
					}()
				}
				for _, task := range d.Tasks {
					jobs <- task
				}
				close(jobs)
				wg.Wait()
			})
		}
	}
}

// wantExit is the first <exit> text the bridge reads: a transfer's when
// the task transfers to a human agent, else the end tool's.
func wantExit(script []agenttest.Turn) string {
	for _, turn := range script {
		for _, c := range turn.Calls {
			if strings.HasPrefix(strings.ToLower(c.Name), "transfer") {
				return "Transfer complete."
			}
		}
	}
	return "The task is finished."
}
