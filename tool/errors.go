package tool

import "errors"

// Sentinel errors. Constructors wrap them; test with [errors.Is].
var (
	// ErrInvalidParams means [New] cannot build a tool from what it was
	// given: the name is invalid (toolname.Validate), the description is
	// empty, the function is nil, or the parameters type is not a struct,
	// is recursive, holds a field with no JSON form (channel, function,
	// complex number), maps two fields to one JSON name, or has validate
	// tags the validator cannot apply.
	ErrInvalidParams = errors.New("invalid tool definition")
	// ErrDuplicateTool means two tools of one [Set] share a name.
	ErrDuplicateTool = errors.New("duplicate tool name")
)
