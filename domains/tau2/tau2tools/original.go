package tau2tools

import (
	"context"

	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// New builds a tau2 tool: a typed tool named name, validated in pydantic's
// lax mode, that presents the Python original's description and
// properties (as tau2data records them, through tool.Options.Properties) while its checks
// stay those of P, whose fields must name exactly the original's
// properties. opts (nil: none) give the other options; lax mode is always
// on. opts.Properties nil presents the original's properties; a non-nil
// empty map presents P's own schema (the tests compare it with the
// original's). New fails when the original is not recorded or P does not
// fit it.
func New[P any](domain, name string, fn func(context.Context, *state.Shared, P) (any, error), opts *tool.Options) (*tool.Typed[P], error) {
	s, err := tau2orig.Original(domain, name)
	if err != nil {
		return nil, err
	}
	var o tool.Options
	if opts != nil {
		o = *opts
	}
	o.Lax = true
	switch {
	case o.Properties == nil:
		o.Properties = s.Properties
	case len(o.Properties) == 0:
		o.Properties = nil // P's own
	}
	return tool.New(name, s.Description, fn, &o)
}
