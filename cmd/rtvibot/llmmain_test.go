package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/agent/agenttest"
	"github.com/voiceeval/schematools/domains/tau2script"
	"github.com/voiceeval/schematools/rtvi/bridge"
)

func TestParseRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-llm-url", "http://127.0.0.1:8000/v1", "-llm-model", ""},
		{"-llm-url", "http://127.0.0.1:8000/v1", "-llm-provider", "mistral"},
		{"-llm-url", "http://127.0.0.1:8000/v1", "-gold", "-task", "0"},
		{"-llm-url", "http://127.0.0.1:8000/v1", "-write-timeout", "0"},
		{"-llm-url", "http://127.0.0.1:8000/v1", "-idle-timeout", "-1s"},
		{"-no-such-flag"},
	} {
		_, err := parse(args, io.Discard)
		assert.Error(t, err, "%v", args)
	}
	f, err := parse(nil, io.Discard) // no -llm-url: the scripted brain
	require.NoError(t, err)
	assert.Empty(t, f.url)
	f, err = parse([]string{"-llm-url", "http://127.0.0.1:8000/v1", "-llm-provider", "anthropic"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "ANTHROPIC_API_KEY", f.keyEnv)
	f, err = parse([]string{"-llm-url", "http://127.0.0.1:8000/v1"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "OPENAI_API_KEY", f.keyEnv)
	assert.Equal(t, "127.0.0.1:8765", f.addr)
	assert.Error(t, run([]string{"-llm-url", "http://x/v1", "-addr", "0.0.0.0:0"}, io.Discard, io.Discard), "loopback only")
}

// The command, started as a process (`rtvibot -llm-url <stand-in>`), driven
// with NeMo's runner's message sequence for one scenario — prepare
// connection: client-ready, reset, update_system_prompt,
// apply_initialization, close; run connection: client-ready, the "Hello"
// kickoff one second in, the conversation until <exit> and 0.5 s more,
// get_context_history, get_scenario_summary — reaches the replay's DB
// hash with a clean exit, and the agent's n_calls clear NeMo's
// --min-agent-turns (3). The key comes from the variable -llm-key-env
// names.
func TestCommandPlaysATaskForNeMosRunner(t *testing.T) {
	d, err := tau2script.Load("tau2_airline")
	require.NoError(t, err)
	want, tools := expectations(t, "tau2_airline", d.Tasks)
	task, err := d.Task("0")
	require.NoError(t, err)
	script, err := d.Script(task, tau2script.Options{})
	require.NoError(t, err)
	llm := agenttest.New(script...)
	var auth atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		llm.ServeHTTP(w, r)
	}))
	defer ts.Close()

	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "RTVIBOT_TEST_MAIN=1", "SCENARIO_KEY=sk-test",
		"RTVIBOT_TEST_ARGS=-addr 127.0.0.1:0 -llm-url "+ts.URL+"/v1 -llm-model nemotron -llm-key-env SCENARIO_KEY")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	fields := strings.Fields(line)
	require.GreaterOrEqual(t, len(fields), 4, line)
	url := fields[3]
	require.True(t, strings.HasPrefix(url, "ws://127.0.0.1:"), line)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prep, err := bridge.Dial(ctx, url, nil)
	require.NoError(t, err)
	require.NoError(t, prep.Reset(ctx))
	require.NoError(t, prep.UpdateSystemPrompt(ctx, bridge.Prompt{Prompt: "You are an airline agent.", Tools: tools, ToolDomain: "tau2_airline"}))
	require.NoError(t, prep.ApplyInitialization(ctx, bridge.Init{Side: "agent", Domain: "tau2_airline", SharedStateInit: map[string]any{"db_path": "tau2_airline/db.json"}}))
	require.NoError(t, prep.Close())

	rec := &bridge.Recorder{Agent: true}
	run, err := bridge.Dial(ctx, url, &bridge.Options{OnEvent: rec.Handle})
	require.NoError(t, err)
	defer run.Close()
	time.Sleep(time.Second)
	require.NoError(t, run.SendText(ctx, "Hello"))
	require.Eventually(t, func() bool { _, ok := rec.Exit(); return ok }, 30*time.Second, 10*time.Millisecond, "no <exit>")
	time.Sleep(500 * time.Millisecond)
	hist, err := run.GetContextHistory(ctx)
	require.NoError(t, err)
	text, ok := hist.Reply["context"].(string)
	require.True(t, ok, "a str context")
	assert.True(t, strings.HasPrefix(text, "[{'role': 'system', 'content': 'You are an airline agent.'}, {'role': 'user', 'content': 'Hello'}"), text)
	sum, err := run.GetScenarioSummary(ctx, false)
	require.NoError(t, err)
	require.NotNil(t, sum.DBHash)
	assert.Equal(t, want["0"], *sum.DBHash)
	exit, _ := rec.Exit()
	assert.Equal(t, "The task is finished.", exit)
	usage := rec.Usage()
	assert.Equal(t, int64(len(script)), usage.Calls)
	assert.GreaterOrEqual(t, usage.Calls, int64(3), "NeMo's --min-agent-turns")
	assert.Equal(t, "Bearer sk-test", auth.Load(), "the key from -llm-key-env's variable")
	var prompt int64
	for i := range script {
		prompt += int64(tau2script.Usage(i).PromptTokens)
	}
	assert.Equal(t, prompt, usage.Prompt)
	reqs := llm.Requests()
	require.NotEmpty(t, reqs)
	assert.Equal(t, "nemotron", reqs[0].Model)
	assert.True(t, reqs[0].Stream && reqs[0].IncludeUsage, "streamed with usage, as pipecat asks")
	assert.NotEmpty(t, rec.Turns(), "the spoken goodbye is a transcript turn")
}
