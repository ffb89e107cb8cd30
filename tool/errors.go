package tool

import "errors"

// Sentinel errors. Constructors and calls wrap them; test with [errors.Is].
var (
	// ErrInvalidName means a tool name is empty or does not match
	// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$.
	ErrInvalidName = errors.New("invalid tool name")
	// ErrMissingDescription means a tool has an empty description.
	ErrMissingDescription = errors.New("missing tool description")
	// ErrInvalidParams means a typed tool cannot be built from its
	// parameters type and function: the function is nil, or the type is not
	// a struct, is recursive, holds a field with no JSON form (channel,
	// function, complex number), maps two fields to one JSON name, or has
	// validate tags the validator cannot apply.
	ErrInvalidParams = errors.New("invalid parameters type")
	// ErrDuplicateTool means two tools of one [Set] share a name.
	ErrDuplicateTool = errors.New("duplicate tool name")
	// ErrInvalidArgs means raw call arguments are not a JSON object.
	ErrInvalidArgs = errors.New("invalid tool arguments")
	// ErrDelivery wraps an error returned by the deliver callback of [Call].
	ErrDelivery = errors.New("result delivery failed")
	// ErrAfterResult wraps an error or panic of a tool's AfterResult.
	ErrAfterResult = errors.New("after-result hook failed")
)
