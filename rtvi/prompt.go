package rtvi

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
	"github.com/voiceeval/schematools/tool"
)

// reset starts the conversation again from the last prompt and resets the
// services. It reads no arguments and never touches the shared state or
// the tools. Any failure answers false.
func (d *Dispatcher) reset(ctx context.Context, _ any) (any, error) {
	d.mu.Lock()
	msgs := slices.Clone(d.original)
	d.mu.Unlock()
	if msgs == nil {
		msgs = []ChatMessage{}
	}
	if c := d.cfg.Conversation; c != nil {
		if err := c.Reset(ctx, msgs); err != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: reset: conversation reset failed", "err", err)
			return false, nil
		}
	}
	if err := d.resetServices(ctx); err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: reset: service reset failed", "err", err)
		return false, nil
	}
	return true, nil
}

func (d *Dispatcher) resetServices(ctx context.Context) error {
	for _, s := range d.cfg.Services {
		if s == nil {
			continue
		}
		if err := s.Reset(ctx); err != nil {
			return err
		}
	}
	return nil
}

// promptArgs are the arguments of update_system_prompt once checked.
type promptArgs struct {
	prompt  string
	domain  string
	spec    []registry.ToolSpec // in the scenario's order: tools are built in it
	install bool                // a tools spec was given (and tool calling is on)
}

// updateSystemPrompt starts a scenario: new prompt, cleared state (in
// place: tools holding it see the new scenario), the scenario's domain and
// the RTVI notifier in the state, and — when tool calling is on and a
// tools spec is given — a new tool set. It answers true, or false when
// the arguments are unusable or a step fails.
//
// Unlike the Python original, every argument is checked and the tool set
// is built once on a scratch state before anything changes, so a bad
// request leaves the previous scenario untouched. Only a failure of the
// bot's own ToolInstaller or services, after the state was cleared, leaves
// the new scenario started without its tools.
func (d *Dispatcher) updateSystemPrompt(ctx context.Context, args any) (any, error) {
	a, err := d.promptArgs(args)
	if err != nil {
		d.cfg.Logger.WarnContext(ctx, "rtvi: update_system_prompt refused", "err", err)
		return false, nil
	}
	if a.install {
		if _, err := d.buildTools(a, state.New()); err != nil {
			d.cfg.Logger.WarnContext(ctx, "rtvi: update_system_prompt: tools cannot be built", "err", err)
			return false, nil
		}
	}

	msgs := []ChatMessage{{Role: d.cfg.SystemRole, Content: a.prompt}}
	if c := d.cfg.Conversation; c != nil {
		if err := c.Reset(ctx, slices.Clone(msgs)); err != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: update_system_prompt: conversation reset failed", "err", err)
			return false, nil
		}
	}
	d.mu.Lock()
	d.original = msgs
	d.mu.Unlock()

	// From here on the scenario has started: a bot-side failure below
	// (installing the tools, resetting a service) answers false with the
	// state already cleared for the new scenario.
	d.st.StartScenario(a.domain, d.notifier)

	if a.install {
		set, err := d.buildTools(a, d.st)
		if err == nil {
			err = d.cfg.Installer.InstallTools(ctx, set)
		}
		if err != nil {
			d.cfg.Logger.ErrorContext(ctx, "rtvi: update_system_prompt: tools not installed", "err", err)
			return false, nil
		}
	}
	if err := d.resetServices(ctx); err != nil {
		d.cfg.Logger.ErrorContext(ctx, "rtvi: update_system_prompt: service reset failed", "err", err)
		return false, nil
	}
	return true, nil
}

func (d *Dispatcher) buildTools(a promptArgs, st *state.Shared) (*tool.Set, error) {
	set, err := d.cfg.Tools.NewSet(a.domain, a.spec, registry.Deps{State: st, Logger: d.cfg.Logger})
	if err != nil && d.noRegistry {
		err = fmt.Errorf("rtvi: no tool registry (Config.Tools is nil): %w", err)
	}
	return set, err
}

// promptArgs reads prompt (default ""), tools (default "{}": a JSON string
// of {tool name: keyword arguments}; an inline object is accepted too),
// add_suffix (default true, Python truthiness) and tool_domain (default
// "default"). A null means the argument's Python None: no prompt, no tool
// change, no suffix, the default domain.
func (d *Dispatcher) promptArgs(args any) (promptArgs, error) {
	m, err := object(args)
	if err != nil {
		return promptArgs{}, err
	}
	var a promptArgs
	switch p := m["prompt"].(type) {
	case string:
		a.prompt = p
	case nil:
	default:
		return a, fmt.Errorf("prompt must be a string, got %s", pyvalue.TypeName(p))
	}
	if a.prompt == "" {
		return a, fmt.Errorf("empty prompt")
	}
	addSuffix := true
	if v, ok := m["add_suffix"]; ok {
		addSuffix = pyvalue.Truthy(v)
	}
	if addSuffix && d.cfg.PromptSuffix != "" {
		a.prompt += "\n" + d.cfg.PromptSuffix
	}
	a.domain = state.DefaultDomain
	switch v := m["tool_domain"].(type) {
	case string:
		if v != "" {
			a.domain = v
		}
	case nil:
	default:
		return a, fmt.Errorf("tool_domain must be a string, got %s", pyvalue.TypeName(v))
	}

	tools, ok := m["tools"]
	if !ok {
		tools = "{}"
	}
	if !pyvalue.Truthy(tools) || d.cfg.Installer == nil {
		return a, nil // null or "" leaves the tools as they are
	}
	var order []string // the scenario's tool order, when the spec is JSON text
	if s, isStr := tools.(string); isStr {
		if tools, err = pyjson.Decode([]byte(s)); err != nil {
			return a, fmt.Errorf("tools is not valid JSON: %w", err)
		}
		order, _ = pyjson.ObjectKeys([]byte(s)) // nil when strict JSON cannot read it: sorted below
	}
	spec, ok := tools.(map[string]any)
	if !ok {
		return a, fmt.Errorf("tools must be a JSON object of {tool name: keyword arguments}, got %s", pyvalue.TypeName(tools))
	}
	if len(order) != len(spec) || slices.ContainsFunc(order, func(k string) bool { _, ok := spec[k]; return !ok }) {
		order = slices.Sorted(maps.Keys(spec)) // an object already decoded: its order is gone
	}
	a.spec = make([]registry.ToolSpec, 0, len(spec))
	for _, name := range order {
		switch k := spec[name].(type) {
		case map[string]any:
			a.spec = append(a.spec, registry.ToolSpec{Name: name, Args: k})
		default:
			return a, fmt.Errorf("keyword arguments of tool %q must be an object, got %s", name, pyvalue.TypeName(spec[name]))
		}
	}
	a.install = true
	return a, nil
}
