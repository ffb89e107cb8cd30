package replay

import (
	"context"
	"fmt"

	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
)

// Invoke runs t on the replay path and returns its raw result: the same
// argument checking as the live path (a typed tool answers bad arguments
// with a [tool.ValidationResult] value), but no empty-result envelope, no
// delivery and no after-result hook. A bare empty list stays a bare empty
// list. nil args are treated as empty; a panic in the tool is returned as
// an error.
func Invoke(ctx context.Context, t tool.Tool, args map[string]any) (res any, err error) {
	if args == nil {
		args = map[string]any{}
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("tool %s panicked: %v", t.Name(), r)
		}
	}()
	return t.Execute(ctx, args)
}

// ToolMap maps the names gold actions use to the tools of one replay; an
// empty one is made with make or a literal, and filled with [ToolMap.Add].
type ToolMap map[string]tool.Tool

// Add adds tools under their own names, refusing duplicates. Two-sided
// domains use it to merge agent-side and user-side tools into one map.
func (m ToolMap) Add(tools ...tool.Tool) error {
	for _, t := range tools {
		if _, dup := m[t.Name()]; dup {
			return fmt.Errorf("replay: two tools named %q: %w", t.Name(), tool.ErrDuplicateTool)
		}
		m[t.Name()] = t
	}
	return nil
}

// RegistryTools returns a [ToolBuilder] that builds a one-sided domain's
// tools from reg, bound to the replay's agent state: the tools named in
// spec (built in its order), or every tool registered in domain when spec
// is nil. Map keys are the tools' names.
func RegistryTools(reg *registry.Tools, domain string, spec []registry.ToolSpec) ToolBuilder {
	return func(env Env) (ToolMap, error) {
		names := spec
		if names == nil {
			for _, n := range reg.Names(domain) {
				names = append(names, registry.ToolSpec{Name: n})
			}
		}
		set, err := reg.NewSet(domain, names, registry.Deps{State: env.Agent, Clock: env.Clock, IDs: env.IDs})
		if err != nil {
			return nil, err
		}
		m := ToolMap{}
		return m, m.Add(set.Tools()...)
	}
}
