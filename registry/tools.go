package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/voiceeval/schematools/hooks"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// Deps are what a scenario gives each tool it builds: what the Python
// original injected into tool constructors (shared_state, rtvi) plus the
// scenario's keyword arguments for that one tool.
type Deps struct {
	// State is the scenario's shared state. Nil gives each tool a private
	// state, as Python tools built without shared_state get.
	State *state.Shared
	// Clock and IDs, when set, are the only sources of time and fresh ids a
	// tool may use; gold replay sets them so a replay hashes the same on
	// every day. Nil means the tool may use the real clock and random ids.
	Clock func() time.Time
	IDs   func() string
	// Logger is the logger tools should use; nil means slog.Default().
	Logger *slog.Logger
	// Args are the scenario's keyword arguments for this tool, e.g. the menu
	// of a restaurant scenario. Decode them with [Configured]; unknown keys
	// must be refused, not ignored.
	Args map[string]any
}

// Factory builds one tool for a scenario.
type Factory func(deps Deps) (tool.Tool, error)

// Tools maps domain -> name -> tool [Factory], and domain -> the domain's
// [hooks.Set]. The zero value is an empty registry, ready to use; it is
// safe for concurrent use and must not be copied after first use.
type Tools struct {
	// Logger receives the default-domain fallback warnings; nil means
	// [slog.Default].
	Logger *slog.Logger

	factories table[Factory]
	hooks     table[hooks.Set]
}

// Register adds f under (domain, name); an empty domain means the default
// domain, whose names every domain falls back to. It fails, leaving the
// registry unchanged, when the pair is taken ([ErrDuplicate], naming both
// registrants) or a name does not match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$
// (the error wraps [tool.ErrInvalidParams]).
func (t *Tools) Register(domain, name string, f Factory) error {
	return t.factories.register(domain, name, f, caller(1))
}

// Names returns the tool names registered in domain, in registration
// order; an unknown domain has none.
func (t *Tools) Names(domain string) []string { return t.factories.names(domain) }

// SetHooks registers the domain's hooks (initialisation functions, sync,
// predicates). A domain has one Set: a second one is an [ErrDuplicate].
func (t *Tools) SetHooks(domain string, h hooks.Set) error {
	return t.hooks.register(domain, "hooks", h, caller(1))
}

// Hooks returns the hooks registered for domain (exactly; there is no
// default-domain fallback), or the zero Set.
func (t *Tools) Hooks(domain string) hooks.Set {
	t.hooks.mu.RLock()
	defer t.hooks.mu.RUnlock()
	h, _ := t.hooks.get(normDomain(domain), "hooks")
	return h.value
}

// New builds the tool registered as (domain, name) — falling back to the
// default domain, with a logged warning — with deps. An unknown name is
// an error wrapping [ErrNotFound] that lists what each domain holds.
func (t *Tools) New(domain, name string, deps Deps) (tool.Tool, error) {
	f, err := t.lookup(domain, name)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return build(f, name, deps)
}

// ToolSpec is one entry of a scenario's tool map: a tool's name and its
// keyword arguments (nil for none).
type ToolSpec struct {
	Name string
	Args map[string]any
}

// NewSet builds the tool set of a scenario from its tool map, in the map's
// order: the Python bot builds its tools in the scenario's order, and
// constructors that seed the shared state (setdefault) depend on it. Every
// tool receives deps with Args set to its own keyword arguments. The
// problems of all tools — unknown names, bad keyword arguments (the first
// one per tool), failing factories — are reported together in one error;
// duplicate tool names are an error too.
func (t *Tools) NewSet(domain string, spec []ToolSpec, deps Deps) (*tool.Set, error) {
	var tools []tool.Tool
	var errs []error
	for _, ts := range spec {
		f, err := t.lookup(domain, ts.Name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tl, err := build(f, ts.Name, withArgs(deps, ts.Args))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tools = append(tools, tl)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("registry: building the tools of domain '%s': %w", normDomain(domain), errors.Join(errs...))
	}
	set, err := tool.NewSet(tools...)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	return set, nil
}

func (t *Tools) lookup(domain, name string) (Factory, error) {
	return t.factories.lookup(domain, name, t.Logger)
}

// state returns the scenario state, or a private one when there is none.
func (d Deps) state() *state.Shared {
	if d.State == nil {
		return state.New()
	}
	return d.State
}

func withArgs(deps Deps, args map[string]any) Deps {
	deps.Args = args
	return deps
}

// build runs a factory, turning a panic or a nil tool into an error.
func build(f Factory, name string, deps Deps) (tl tool.Tool, err error) {
	if f == nil {
		return nil, fmt.Errorf("tool '%s': nil factory", name)
	}
	defer func() {
		if r := recover(); r != nil {
			tl, err = nil, fmt.Errorf("tool '%s': factory panicked: %v", name, r)
		}
	}()
	tl, err = f(deps)
	switch {
	case err != nil:
		return nil, fmt.Errorf("tool '%s': %w", name, err)
	case tl == nil:
		return nil, fmt.Errorf("tool '%s': factory returned no tool", name)
	}
	return tl, nil
}

// ErrBadOptions means a scenario's keyword arguments for a tool have an
// unknown key or a value of the wrong type.
var ErrBadOptions = errors.New("bad keyword arguments")

// Configured returns a factory that decodes deps.Args strictly into an
// options struct O and passes it to fn. Missing keys keep O's zero
// values. Keyword names match O's json names exactly, as Python matches
// keyword arguments: an unknown or miscased name is an error in Python's
// words ("got an unexpected keyword argument 'ITEMS'", with the name it
// resembles), and so is a miscased key of an object bound to a nested
// struct; a value of the wrong type is an error naming the key. A map
// holds no repeated key; a spec read from JSON text with [tool.DecodeArgs]
// keeps the last of a repeated one, as json.loads does.
func Configured[O any](fn func(deps Deps, opts O) (tool.Tool, error)) Factory {
	return func(deps Deps) (tool.Tool, error) {
		opts, err := decodeOptions[O](deps.Args)
		if err != nil {
			return nil, err
		}
		return fn(deps, opts)
	}
}

// Plain returns a factory for a tool that takes no keyword arguments: any
// argument is an error naming it, in Python's words ("got an unexpected
// keyword argument 'x'").
func Plain(fn func(deps Deps) (tool.Tool, error)) Factory {
	return func(deps Deps) (tool.Tool, error) {
		if len(deps.Args) > 0 {
			keys := make([]string, 0, len(deps.Args))
			for k := range deps.Args {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if len(keys) == 1 {
				return nil, fmt.Errorf("%w: got an unexpected keyword argument %s (this tool takes none)", ErrBadOptions, pyQuote(keys[0]))
			}
			return nil, fmt.Errorf("%w: got unexpected keyword arguments %s (this tool takes none)", ErrBadOptions, strings.Join(pyQuoteAll(keys), ", "))
		}
		return fn(deps)
	}
}

// decodeOptions decodes keyword arguments into O with encoding/json rules and
// no unknown keys. Errors wrap [ErrBadOptions] and name the offending key.
func decodeOptions[O any](args map[string]any) (O, error) {
	var o O
	if len(args) == 0 {
		return o, nil
	}
	if err := unexpectedKeywords(reflect.TypeFor[O](), args); err != nil {
		return o, err
	}
	data, err := json.Marshal(args)
	if err != nil {
		return o, fmt.Errorf("%w: %w", ErrBadOptions, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		var o0 O
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return o0, fmt.Errorf("%w: argument %q: a JSON %s cannot be a %s", ErrBadOptions, te.Field, te.Value, te.Type)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return o0, fmt.Errorf("%w: unknown argument %s", ErrBadOptions, strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return o0, fmt.Errorf("%w: %w", ErrBadOptions, err)
	}
	return o, nil
}

// RegisterHarness registers the cross-domain harness tools of
// [tool.Harness] in the default domain of r: EndConversationTool,
// TransferToHumanAgentsTool and SendScenarioSummaryTool, each bound to
// deps.State and logging to deps.Logger.
func RegisterHarness(r *Tools) error {
	var errs []error
	for i, t := range tool.Harness(nil, nil) {
		errs = append(errs, r.Register(defaultDomain, t.Name(), Plain(func(d Deps) (tool.Tool, error) {
			return tool.Harness(d.state(), d.Logger)[i], nil
		})))
	}
	return errors.Join(errs...)
}
