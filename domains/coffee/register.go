package coffee

import (
	"errors"

	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
)

// Register adds the coffee-shop tools to r under [Domain]. get_menu takes
// the keyword arguments of [MenuOptions]; the other tools take none.
func Register(r *registry.Tools) error {
	return errors.Join(
		r.Register(Domain, NameGetMenu, registry.Configured(func(d registry.Deps, mo MenuOptions) (tool.Tool, error) {
			return NewGetMenuWith(mo, &tool.Options{State: d.State})
		})),
		r.Register(Domain, NamePlaceOrder, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return NewPlaceOrder(&tool.Options{State: d.State})
		})),
		r.Register(Domain, NameOrderStatus, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return NewOrderStatus(&tool.Options{State: d.State})
		})),
		r.Register(Domain, NameCancelOrder, registry.Plain(func(d registry.Deps) (tool.Tool, error) {
			return NewCancelOrder(&tool.Options{State: d.State})
		})),
	)
}
