package tool

import "context"

// Tool is the contract every tool fulfils.
//
// Properties is a JSON Schema "properties" object and Required lists the
// argument names that must be present; both may be computed on every call,
// so a tool's schema can depend on its configuration.
//
// Execute runs the tool with the model's arguments and returns the RAW
// result: a bare empty list stays a bare empty list. A Go error means the
// call failed in a way the Python original would have raised; results meant
// for the model, including structured error results, are values. Execute
// must be safe for concurrent use.
//
// Results reach a model only through [Call] (or [Set.Call]), which delivers
// each result exactly once; replay paths call Execute directly.
type Tool interface {
	Name() string
	Description() string
	Properties() map[string]any
	Required() []string
	Execute(ctx context.Context, args map[string]any) (any, error)
}

// AfterResulter is implemented by tools that act after their result has been
// delivered, such as ending the conversation. [Call] runs AfterResult once,
// after a successful delivery, with the call's arguments and the raw result
// Execute returned (including a structured error result it returned as a
// value). It never runs after Execute failed or delivery failed.
type AfterResulter interface {
	AfterResult(ctx context.Context, args map[string]any, result any) error
}

// ErrorTyper is implemented by tools whose validation results carry an
// "error_type" other than "validation_error", as typed tools built with
// [Options].ErrorType do. [CallJSON] gives the result for malformed raw
// arguments the tool's error type.
type ErrorTyper interface {
	ErrorType() string
}
