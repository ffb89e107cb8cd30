package rtvi

import "context"

// Notifier is the [state.Notifier] of a bot driven over RTVI: it wraps each
// message a tool sends (action-applied, the exit and final-response
// texts) in a server-message and passes it to Send. A nil Send drops the
// messages. It is safe for concurrent use when Send is.
//
// [state.Notifier]: github.com/voiceeval/schematools/state.Notifier
type Notifier struct {
	Send func(ctx context.Context, msg []byte) error
}

// Notify sends message as {"label": "rtvi-ai", "type": "server-message",
// "data": message}.
func (n *Notifier) Notify(ctx context.Context, message any) error {
	if n == nil || n.Send == nil {
		return nil
	}
	b, err := ServerMessage(message)
	if err != nil {
		return err
	}
	return n.Send(ctx, b)
}
