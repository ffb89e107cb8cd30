// Package registry keeps what a scenario refers to by (domain, name): the
// factories of its tools, and each domain's hooks (initialisation
// functions, sync, DB-state predicates; see package hooks).
//
// # Domains and the default fallback
//
// [Tools] maps domain -> name -> [Factory]. The same name may exist in
// several domains ("CancelReservationTool" in two airline domains); names
// shared by every scenario, such as "EndConversationTool", live in the
// default domain ("default", state.DefaultDomain). [Tools.New] and
// [Tools.NewSet] try the exact domain first, then fall back to the default
// domain with a logged warning that names the domain that fell through, so
// a typo such as "tau2_arline" is visible. When neither holds the name,
// the error wraps [ErrNotFound] and lists what each domain does hold.
//
// # Rules
//
//   - Registering a (domain, name) pair twice is an error wrapping
//     [ErrDuplicate] that names both registrants; the first registration
//     stays. An empty domain means the default domain.
//   - Names and domains match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ (the error
//     wraps tool.ErrInvalidParams).
//   - [Tools.Names] keeps registration order.
//   - A domain has one hooks.Set ([Tools.SetHooks]; a second is an
//     [ErrDuplicate]); [Tools.Hooks] has no default-domain fallback, and
//     returns the zero Set for a domain without one.
//   - Tools is safe for concurrent use; its zero value is empty and ready
//     (set Logger for the fallback warnings), so every test can use a
//     fresh one.
//
// # Tool factories
//
// A [Factory] receives the scenario's dependencies ([Deps]: the shared
// state — which carries the notifier —, the clock and id source of a gold
// replay, a logger and the scenario's per-tool keyword arguments) and
// returns a tool. [Tools.NewSet] builds the whole tool set of a scenario
// from its {name: kwargs} spec and reports every bad name or argument at
// once. [Configured] decodes keyword arguments strictly into an options
// struct — names match exactly, as Python's keyword arguments do, and an
// unexpected one is refused in Python's words —, and [Plain] wraps
// factories that take none. There is no package-level registry: a
// program builds its own (new(Tools)) and passes it where it is needed.
package registry
