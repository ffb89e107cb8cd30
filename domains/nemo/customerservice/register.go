package customerservice

import (
	"errors"

	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/tool"
)

// Register adds the eight customer-service tools to r under [Domain].
// LookupAccountTool takes [LookupAccountOptions], ChangePlanTool
// [ChangePlanOptions], ResolveTicketTool [ResolveTicketOptions], the
// others [Options].
func Register(r *registry.Tools) error {
	plain := func(name string, build func(d registry.Deps, o Options) (tool.Tool, error)) error {
		return r.Register(Domain, name, registry.Configured(build))
	}
	return errors.Join(
		r.Register(Domain, NameLookupAccount, registry.Configured(func(d registry.Deps, o LookupAccountOptions) (tool.Tool, error) {
			return NewLookupAccount(d.State, o)
		})),
		plain(NameCheckOrderStatus, func(d registry.Deps, o Options) (tool.Tool, error) { return NewCheckOrderStatus(d.State, o) }),
		plain(NameProcessRefund, func(d registry.Deps, o Options) (tool.Tool, error) { return NewProcessRefund(d.State, o) }),
		plain(NameStartItemReturn, func(d registry.Deps, o Options) (tool.Tool, error) { return NewStartItemReturn(d.State, o) }),
		r.Register(Domain, NameChangePlan, registry.Configured(func(d registry.Deps, o ChangePlanOptions) (tool.Tool, error) {
			return NewChangePlan(d.State, o)
		})),
		plain(NameUnlockAccount, func(d registry.Deps, o Options) (tool.Tool, error) { return NewUnlockAccount(d.State, o) }),
		plain(NameCancelSubscription, func(d registry.Deps, o Options) (tool.Tool, error) { return NewCancelSubscription(d.State, o) }),
		r.Register(Domain, NameResolveTicket, registry.Configured(func(d registry.Deps, o ResolveTicketOptions) (tool.Tool, error) {
			return NewResolveTicket(d.State, o, d.Logger)
		})),
	)
}
