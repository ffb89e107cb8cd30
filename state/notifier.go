package state

import "context"

// A Notifier carries server messages from tools to the harness. The RTVI
// layer implements it by wrapping each message in an RTVI server-message; a
// test can implement it by appending to a slice.
//
// Notify must be safe for concurrent use. Tools treat a Notify error as
// non-fatal: they log it and carry on, as the Python original does.
type Notifier interface {
	Notify(ctx context.Context, message any) error
}
