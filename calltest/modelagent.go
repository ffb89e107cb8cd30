package calltest

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/tool"
)

// The roles of a [Turn].
const (
	roleUser  = "user"
	roleAgent = "agent"
)

// ModelOptions configure [ModelAgent]; a nil *ModelOptions is the zero
// value.
type ModelOptions struct {
	// System is the system prompt, sent as the first message; "" sends
	// none.
	System string
}

// ModelAgent returns an [Agent] that makes one model call per run: the
// test's history (user turns as user messages, agent turns as assistant
// messages, after opts.System when set) and tools in, the response's calls
// out, their arguments decoded with [tool.DecodeArgs]. Nothing is executed:
// the step under test is the model's answer, not what its calls would do.
//
// A model error (an HTTP failure, a cut stream) is the run's error, never a
// pass; so are arguments DecodeArgs refuses, which name the call. The agent
// is safe for concurrent use when m is, as an [agent.Model] must be.
func ModelAgent(m agent.Model, tools *tool.Set, opts *ModelOptions) Agent {
	var o ModelOptions
	if opts != nil {
		o = *opts
	}
	return func(ctx context.Context, history []Turn) (Step, error) {
		msgs, err := modelMessages(o.System, history)
		if err != nil {
			return Step{}, err
		}
		resp, err := m.Complete(ctx, agent.Request{Messages: msgs, Tools: tools})
		if err != nil {
			return Step{}, fmt.Errorf("calltest: model: %w", err)
		}
		return modelStep(resp)
	}
}

// modelMessages maps a test's conversation to a model's messages.
func modelMessages(system string, history []Turn) ([]agent.Message, error) {
	msgs := make([]agent.Message, 0, len(history)+1)
	if system != "" {
		msgs = append(msgs, agent.Message{Role: agent.RoleSystem, Content: system})
	}
	for i, t := range history {
		var role string
		switch t.Role {
		case roleUser:
			role = agent.RoleUser
		case roleAgent:
			role = agent.RoleAssistant
		default:
			return nil, fmt.Errorf("%w: history.%d: role %q is neither %q nor %q", ErrInvalidTest, i, t.Role, roleUser, roleAgent)
		}
		msgs = append(msgs, agent.Message{Role: role, Content: t.Message})
	}
	return msgs, nil
}

// modelStep turns a model's response into a Step, decoding each call's
// arguments.
func modelStep(resp agent.Response) (Step, error) {
	step := Step{Text: resp.Text}
	for i, c := range resp.Calls {
		args, err := tool.DecodeArgs([]byte(c.Arguments))
		if err != nil {
			return Step{}, fmt.Errorf("calltest: call %d to %s: %w", i, c.Name, err)
		}
		step.Calls = append(step.Calls, Call{Name: c.Name, Arguments: args})
	}
	return step, nil
}
