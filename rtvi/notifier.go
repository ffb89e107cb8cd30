package rtvi

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// rtviNotifier is the [state.Notifier] of a bot driven over RTVI
// (the one update_system_prompt installs in the state): it wraps each message a tool sends
// (action-applied, the exit and final-response texts) in a server-message
// and passes it to Send. A nil Send drops the messages. It is safe for
// concurrent use when Send is.
type rtviNotifier struct {
	Send func(ctx context.Context, msg []byte) error
}

// Notify sends message as {"label": "rtvi-ai", "type": "server-message",
// "data": message}. A message that cannot be encoded is an error, never a
// panic.
func (n *rtviNotifier) Notify(ctx context.Context, message any) (err error) {
	if n == nil || n.Send == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rtvi: encoding a server-message panicked: %v", r)
		}
	}()
	b, err := serverMessage(messageTree(message))
	if err != nil {
		return err
	}
	return n.Send(ctx, b)
}

// messageTree turns the library's own tool messages into JSON trees, so
// their DB values are written exactly (2.0 stays 2.0), as in a summary.
func messageTree(message any) any {
	switch m := message.(type) {
	case tool.ActionApplied:
		return map[string]any{"type": m.Type, "action": map[string]any(m.Action), "tool_domain": m.ToolDomain}
	case *tool.ActionApplied:
		if m != nil {
			return messageTree(*m)
		}
	case tool.TextMessage:
		return map[string]any{"text": m.Text}
	case state.Action:
		return map[string]any(m)
	}
	return message
}
