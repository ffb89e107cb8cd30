package restaurant

import (
	"context"
	"errors"

	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
)

// Domain is the domain the tools are registered under.
const Domain = "restaurant"

// Tool names, as NeMo registers them (the class names).
const (
	NameGetMenu    = "GetMenuTool"
	NamePlaceOrder = basictools.NamePlaceOrder
)

// MenuOptions are GetMenuTool's construction arguments.
type MenuOptions struct {
	// Menu is the scenario's menu text, returned as it is.
	Menu string `json:"menu,omitempty"`
	// Description replaces the tool's description when not empty.
	Description string `json:"description,omitempty"`
}

// NewGetMenu builds GetMenuTool, which returns {"menu": <the scenario's
// menu text>} and ignores its arguments.
func NewGetMenu(o MenuOptions) (tool.Tool, error) {
	s, err := nemostate.Presented(Domain, NameGetMenu)
	if err != nil {
		return nil, err
	}
	sp := nemostate.SpecOf(s, o.Description)
	sp.Kwargs = true
	menu := o.Menu
	sp.Run = func(context.Context, map[string]any) (any, error) {
		return nemostate.Of("menu", menu), nil
	}
	return nemostate.NewTool(sp), nil
}

// Register adds GetMenuTool ([MenuOptions]) and PlaceOrderTool
// (basictools.PlaceOrderOptions; the same tool basictools registers in
// the default domain) to r under [Domain].
func Register(r *registry.Tools) error {
	return errors.Join(
		r.Register(Domain, NameGetMenu, registry.Configured(func(_ registry.Deps, o MenuOptions) (tool.Tool, error) {
			return NewGetMenu(o)
		})),
		r.Register(Domain, NamePlaceOrder, registry.Configured(func(d registry.Deps, o basictools.PlaceOrderOptions) (tool.Tool, error) {
			return basictools.NewPlaceOrder(d.State, o, d.Logger)
		})),
	)
}
