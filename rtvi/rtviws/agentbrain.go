package rtviws

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/rtvi"
	"github.com/voiceeval/schematools/tool"
)

// AgentBrain is the Brain of an LLM bot: each user turn is one
// agent.Loop turn over the scenario's context and tools, on any
// agent.Model (provider/openai for an OpenAI-compatible server).
//
// Plug it into the dispatcher as its Conversation, Installer and InFlight
// (Config wires them: see [AgentBrain.Wire]): reset and
// update_system_prompt replace the context with the scenario's prompt and
// the tools with the scenario's, as for a pipecat bot, so one brain serves
// the agent or the user-simulator role, whichever prompt it is given
// (NeMo's bot_server.py).
//
// Per model call it sends one Emitter.LLMResponse with the model's usage
// (NeMo's runner counts the agent's turns by them) and speaks the
// response's text (Emitter.Say and a text frame): at once when the
// response calls no tool, and after its calls ran when it does, as a
// pipecat bot's TTS stage plays it after the calls' urgent messages have
// gone out (see speaker). The end tool's "<exit>" is sent by the tool's
// after-result hook, once its result is in the context, so a goodbye said
// with the end call is heard after <exit>; then, as pipecat does after a
// result, the model runs once more (its text spoken, any calls it makes
// answered and not followed up).
//
// Build it as a struct literal: Model is required, the other fields are
// optional; its context starts empty and it has no tools until
// update_system_prompt.
type AgentBrain struct {
	// Model is the LLM; required.
	Model agent.Model
	// Logger receives the loop's logs; nil means slog.Default.
	Logger *slog.Logger
	// CallOptions are passed to each tool call.
	CallOptions *tool.CallOptions
	// MaxSteps, CallTimeout and Parallel configure each turn's agent.Loop
	// (zero: the loop's defaults).
	MaxSteps    int
	CallTimeout time.Duration
	Parallel    int
	// ToolSteps is each turn's agent.Loop.ToolSteps: model calls that may
	// call tools before the model is asked for words (0: no bound, as
	// pipecat).
	ToolSteps int

	ctxOnce sync.Once
	ctx     *agent.Context // made on first use (agentContext)

	mu    sync.Mutex // held for a turn, and to swap the tools
	tools *tool.Set
}

// agentContext returns the brain's chat context, made empty on first use.
func (b *AgentBrain) agentContext() *agent.Context {
	b.ctxOnce.Do(func() { b.ctx = agent.NewContext() })
	return b.ctx
}

// Wire sets cfg's Conversation, Installer and InFlight to the brain, and
// returns cfg.
func (b *AgentBrain) Wire(cfg rtvi.Config) rtvi.Config {
	conv := &conversation{c: b.agentContext()}
	cfg.Conversation, cfg.InFlight, cfg.Installer = conv, conv, installer{b}
	return cfg
}

// installer is an AgentBrain's rtvi.ToolInstaller, which Wire installs.
type installer struct{ b *AgentBrain }

func (i installer) InstallTools(ctx context.Context, set *tool.Set) error {
	return i.b.installTools(ctx, set)
}

// installTools makes set the tools of the following turns.
func (b *AgentBrain) installTools(_ context.Context, set *tool.Set) error {
	b.mu.Lock()
	b.tools = set
	b.mu.Unlock()
	return nil
}

// Turn runs one user turn (Brain).
func (b *AgentBrain) Turn(ctx context.Context, t Turn) error {
	if b.Model == nil {
		return errors.New("rtviws: AgentBrain has no Model")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	sp := &speaker{t: t}
	loop := b.loop(sp, 0)
	res, err := loop.Turn(ctx, t.Text)
	if err == nil && res.Ended {
		// pipecat runs the LLM again once a result is delivered, the end
		// tool's too: one more model call, not followed up.
		after := b.loop(sp, 1)
		if _, aerr := after.Run(ctx); aerr != nil && !errors.Is(aerr, agent.ErrStepLimit) {
			err = aerr
		}
	}
	sp.flush(ctx)
	// The server reports the error to the harness (an error event).
	return errors.Join(err, sp.err)
}

// loop is one turn's agent.Loop (maxSteps 0: the brain's MaxSteps).
func (b *AgentBrain) loop(sp *speaker, maxSteps int) *agent.Loop {
	if maxSteps == 0 {
		maxSteps = b.MaxSteps
	}
	return &agent.Loop{
		Model:       b.Model,
		Tools:       b.tools,
		Context:     b.agentContext(),
		MaxSteps:    maxSteps,
		ToolSteps:   b.ToolSteps,
		CallTimeout: b.CallTimeout,
		Parallel:    b.Parallel,
		CallOptions: b.CallOptions,
		Logger:      b.Logger,
		Hooks:       agent.Hooks{OnResponse: sp.response},
	}
}

// speaker reports a turn's model calls and speaks their text as a pipecat
// bot with a TTS stage does: the LLM's events (bot-llm-*, metrics) as the
// response ends; its speech once played. A response that calls tools has
// its calls run first — pipecat pushes their messages (action-applied, the
// end tool's <exit>) as urgent transport frames, past the speech still
// queued for the TTS and the output's audio (pipecat 1.6.0
// processors/frame_processor.py push_transport_message:
// OutputTransportMessageUrgentFrame, a SystemFrame;
// transports/base_output.py sends system frames at once and text after
// its audio), so the harness hears <exit> before the goodbye said with it.
type speaker struct {
	t       Turn
	pending string // text of the last response, spoken once its calls ran
	err     error  // the first emit error; nothing more is sent after it
}

// response reports one model call (agent.Hooks.OnResponse): first the
// speech still pending from the call before (its calls have run), then
// this call's LLM events; its text is spoken now when it calls no tool,
// after its calls otherwise.
func (s *speaker) response(ctx context.Context, _ int, resp agent.Response) {
	s.flush(ctx)
	if s.err != nil {
		return
	}
	var chunks []string
	if resp.Text != "" {
		chunks = []string{resp.Text}
	}
	if s.err = s.t.Events.LLMResponse(ctx, rtvi.Usage(resp.Usage), chunks...); s.err != nil {
		return
	}
	s.pending = resp.Text
	if len(resp.Calls) == 0 {
		s.flush(ctx)
	}
}

// flush speaks the pending text, if any.
func (s *speaker) flush(ctx context.Context) {
	text := s.pending
	s.pending = ""
	if text == "" || s.err != nil {
		return
	}
	if s.err = s.t.Events.Say(ctx, text); s.err != nil {
		return
	}
	if s.t.Reply != nil {
		s.err = s.t.Reply(ctx, text)
	}
}
