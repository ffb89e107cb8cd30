package harness

import "context"

// SetLookupHost replaces the resolver of EvaluateOptions.Resolve until
// the returned restore is called.
func SetLookupHost(f func(ctx context.Context, host string) ([]string, error)) (restore func()) {
	old := lookupHost
	lookupHost = f
	return func() { lookupHost = old }
}
