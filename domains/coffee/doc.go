// Package coffee is a small coffee-shop domain written for the quickstart:
// a menu lookup, order placement, order status and cancellation, over an
// embedded JSON DB. It shows how a domain is built with this library —
// typed tools from parameter structs, DB access through a [tool.DB] (reads
// under [state.Shared.View], check-then-write updates under
// [state.Shared.UpdateTables] naming the one table they change), actions
// recorded with a [tool.Recorder], and structured domain errors returned as
// values.
package coffee
