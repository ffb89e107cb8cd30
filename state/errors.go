package state

import "errors"

// Sentinel errors returned (wrapped) by [LoadDB]. Test with [errors.Is].
var (
	// ErrPathEscape means a DB path is absolute, climbs out of the data root
	// with "..", or resolves through a symbolic link to a place outside it.
	ErrPathEscape = errors.New("path escapes the data root")
	// ErrDBNotFound means neither "<path>.json" nor the directory "<path>"
	// exists under the data root.
	ErrDBNotFound = errors.New("no DB artifact found")
	// ErrInvalidDB means a DB file is not valid JSON or is not a JSON object.
	ErrInvalidDB = errors.New("invalid DB file")
)
