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
// (NeMo's runner counts the agent's turns by them), then speaks the
// response's text (Emitter.Say and a text frame). The end tool's "<exit>"
// is sent by the tool's after-result hook, once its result is in the
// context; then, as pipecat does after a result, the model runs once more
// (its text spoken, any calls it makes answered and not followed up).
type AgentBrain struct {
	// Model is the LLM; required.
	Model agent.Model
	// Logger receives the loop's logs; nil means slog.Default.
	Logger *slog.Logger
	// CallOptions are passed to each tool call.
	CallOptions []tool.CallOption
	// MaxSteps, CallTimeout and Parallel configure each turn's agent.Loop
	// (zero: the loop's defaults).
	MaxSteps    int
	CallTimeout time.Duration
	Parallel    int

	ctx *agent.Context

	mu    sync.Mutex // held for a turn, and to swap the tools
	tools *tool.Set
}

// NewAgentBrain returns a brain on model, its context empty and no tools
// until update_system_prompt.
func NewAgentBrain(model agent.Model, logger *slog.Logger) *AgentBrain {
	return &AgentBrain{Model: model, Logger: logger, ctx: agent.NewContext()}
}

// Context returns the brain's chat context.
func (b *AgentBrain) Context() *agent.Context { return b.ctx }

// Wire sets cfg's Conversation, Installer and InFlight to the brain, and
// returns cfg.
func (b *AgentBrain) Wire(cfg rtvi.Config) rtvi.Config {
	conv := b.ctx.Conversation()
	cfg.Conversation, cfg.InFlight, cfg.Installer = conv, conv, b
	return cfg
}

// InstallTools makes set the tools of the following turns
// (rtvi.ToolInstaller).
func (b *AgentBrain) InstallTools(_ context.Context, set *tool.Set) error {
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
	var emitErr error
	loop := b.loop(t, &emitErr, 0)
	res, err := loop.Turn(ctx, t.Text)
	if err == nil && res.Ended {
		// pipecat runs the LLM again once a result is delivered, the end
		// tool's too: one more model call, not followed up.
		after := b.loop(t, &emitErr, 1)
		if _, aerr := after.Run(ctx); aerr != nil && !errors.Is(aerr, agent.ErrStepLimit) {
			err = aerr
		}
	}
	// The server reports the error to the harness (an error event).
	return errors.Join(err, emitErr)
}

// loop is one turn's agent.Loop (maxSteps 0: the brain's MaxSteps).
func (b *AgentBrain) loop(t Turn, emitErr *error, maxSteps int) *agent.Loop {
	if maxSteps == 0 {
		maxSteps = b.MaxSteps
	}
	return &agent.Loop{
		Model:       b.Model,
		Tools:       b.tools,
		Context:     b.ctx,
		MaxSteps:    maxSteps,
		CallTimeout: b.CallTimeout,
		Parallel:    b.Parallel,
		CallOptions: b.CallOptions,
		Logger:      b.Logger,
		Hooks: agent.Hooks{
			OnResponse: func(ctx context.Context, _ int, resp agent.Response) {
				if *emitErr != nil {
					return
				}
				*emitErr = speak(ctx, t, resp)
			},
		},
	}
}

// speak reports one model call and speaks its text.
func speak(ctx context.Context, t Turn, resp agent.Response) error {
	var chunks []string
	if resp.Text != "" {
		chunks = []string{resp.Text}
	}
	if err := t.Events.LLMResponse(ctx, rtvi.TokenUsage(resp.Usage), chunks...); err != nil {
		return err
	}
	if resp.Text == "" {
		return nil
	}
	if err := t.Events.Say(ctx, resp.Text); err != nil {
		return err
	}
	if t.Reply != nil {
		return t.Reply(ctx, resp.Text)
	}
	return nil
}
