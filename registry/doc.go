// Package registry keeps named values per domain: tools, initialisation
// functions, sync appliers, DB-state predicates — anything a scenario refers
// to by (domain, name).
//
// # Domains and the default fallback
//
// A [Registry] maps domain -> name -> value. The same name may exist in
// several domains ("CancelReservationTool" in two airline domains); names
// shared by every scenario, such as "EndConversationTool", live in the
// domain [DefaultDomain]. [Registry.Lookup] tries the exact domain first,
// then falls back to the default domain with a logged warning that names
// the domain that fell through, so a typo such as "tau2_arline" is visible.
// When neither holds the name, the error lists what each domain does hold.
//
// # Rules
//
//   - Registering a (domain, name) pair twice is an error wrapping
//     [ErrDuplicate] that names both registrants; the first registration
//     stays. An empty domain means [DefaultDomain].
//   - Names and domains match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$.
//   - [Registry.Names] keeps registration order; [Registry.All] and
//     [Registry.Domains] are sorted.
//   - A Registry is safe for concurrent use; its zero value is empty and
//     ready, so every test can use a fresh one.
//
// # Tool factories
//
// [Tools] is a registry of [Factory] functions. A factory receives the
// scenario's dependencies ([Deps]: the shared state, the notifier, a logger
// and the scenario's per-tool keyword arguments) and returns a tool.
// [Tools.NewSet] builds the whole tool set of a scenario from its
// {name: kwargs} spec and reports every bad name or argument at once.
// [Configured] decodes keyword arguments strictly into an options struct,
// and [Plain] wraps factories that take none. [Default] is a package-level
// registry for programs that like registering from init; libraries and
// tests should build their own.
package registry
