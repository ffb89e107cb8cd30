package tau2tools

import (
	"context"
	"fmt"
	"sync"

	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// originals are the 73 recorded schemas of tau2data.SchemaFile, keyed by
// domain and tool name, parsed once.
var originals = sync.OnceValues(func() (map[[2]string]pyschema.Schema, error) {
	all, err := pyschema.ParseFS(tau2data.Schemas, tau2data.SchemaFile)
	if err != nil {
		return nil, err
	}
	out := make(map[[2]string]pyschema.Schema, len(all))
	for _, s := range all {
		key := [2]string{s.Domain, s.Name}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("tau2tools: %s: two schemas for %s/%s", tau2data.SchemaFile, s.Domain, s.Name)
		}
		out[key] = s
	}
	return out, nil
})

// Original returns the schema the Python original presents for the tool
// the model calls name in domain ("tau2_airline", "tau2_retail",
// "tau2_telecom"), as recorded in tau2data.SchemaFile: its name,
// description, properties (types, enums, texts, nested items) and
// required list. It fails for a tool the file does not list.
func Original(domain, name string) (pyschema.Schema, error) {
	all, err := originals()
	if err != nil {
		return pyschema.Schema{}, err
	}
	s, ok := all[[2]string{domain, name}]
	if !ok {
		return pyschema.Schema{}, fmt.Errorf("tau2tools: %s lists no tool %s/%s", tau2data.SchemaFile, domain, name)
	}
	return s, nil
}

// New builds a tau2 tool: a typed tool named name, validated in pydantic's
// lax mode, that presents the Python original's description and
// properties (Original, through tool.Options.Properties) while its checks
// stay those of P, whose fields must name exactly the original's
// properties. opts (nil: none) give the other options; lax mode is always
// on. opts.Properties nil presents the original's properties; a non-nil
// empty map presents P's own schema (the tests compare it with the
// original's). New fails when the original is not recorded or P does not
// fit it.
func New[P any](domain, name string, fn func(context.Context, *state.Shared, P) (any, error), opts *tool.Options) (*tool.Typed[P], error) {
	s, err := Original(domain, name)
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
