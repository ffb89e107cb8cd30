package tau2tools

import (
	"errors"
	"fmt"
)

// ErrPython is wrapped by every [*PyError]: test with errors.Is.
var ErrPython = errors.New("python exception")

// PyError is an exception the Python original would have raised where a
// DB does not have the shape of the tau2 data model (None where a dict was
// expected, a string where a number was). Tools return it as a Go error:
// the live path delivers it as {"error": message} and a gold replay
// records it as an exception, as the Python original does with the
// exception. Its message is str() of the Python exception; Type names the
// exception class.
type PyError struct {
	Type string // "AttributeError", "TypeError", "KeyError", "ValueError", "ValidationError", …
	Msg  string
}

// Error returns the message, without the type: what Python's str(exc)
// gives and the live path delivers.
func (e *PyError) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, ErrPython) hold.
func (e *PyError) Unwrap() error { return ErrPython }

// Raise returns a *PyError of type typ with a formatted message.
func Raise(typ, format string, args ...any) error {
	return &PyError{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

func noAttribute(v any, attr string) error {
	return Raise("AttributeError", "'%s' object has no attribute '%s'", PyTypeName(v), attr)
}

// AsDict returns v as a dict, or the AttributeError Python raises when
// .get is called on anything else.
func AsDict(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	return nil, noAttribute(v, "get")
}

// GetDict is Python's m.get(key, {}) where the result must be a dict: a
// missing key gives a fresh empty dict; a present value that is not a dict
// (None included) is an AttributeError.
func GetDict(m map[string]any, key string) (map[string]any, error) {
	v, ok := m[key]
	if !ok {
		return map[string]any{}, nil
	}
	return AsDict(v)
}

// GetDictOr is Python's (m.get(key) or {}) where the result must be a
// dict: a missing or falsy value gives a fresh empty dict; any other value
// that is not a dict is an AttributeError.
func GetDictOr(m map[string]any, key string) (map[string]any, error) {
	v := m[key]
	if !Truthy(v) {
		return map[string]any{}, nil
	}
	return AsDict(v)
}

// GetListOr is Python's (m.get(key) or []) where the result is iterated as
// a list: a missing or falsy value gives an empty list; any other value
// that is not a list is a TypeError.
func GetListOr(m map[string]any, key string) ([]any, error) {
	v := m[key]
	if !Truthy(v) {
		return nil, nil
	}
	if l, ok := v.([]any); ok {
		return l, nil
	}
	return nil, Raise("TypeError", "a list was expected for %s, not '%s'", PyRepr(key), PyTypeName(v))
}

// SetDefaultList checks Python's m.setdefault(key, []) before a write:
// it reports the list the key holds (nil when it is missing, for the
// caller to create), or the AttributeError a later .append or .extend
// would raise when the key holds anything but a list.
func SetDefaultList(m map[string]any, key string) ([]any, error) {
	v, ok := m[key]
	if !ok {
		return nil, nil
	}
	if l, ok := v.([]any); ok {
		return l, nil
	}
	return nil, noAttribute(v, "append")
}

// GetFolded is Python's table.get(key.lower() if key else key), with fold
// in place of lower (PyLower, PyUpper, or a domain's own normalisation):
// the tau2 ports look ids up case-insensitively that way. It returns the
// value found, nil when there is none (or it is null), and the exception
// Python raises for a key that is not a string: an AttributeError for a
// truthy one (it has no lower()), a TypeError for an unhashable empty list
// or dict. A falsy scalar (None, 0, False) finds nothing.
func GetFolded(table map[string]any, key any, fold func(string) string, method string) (any, error) {
	switch k := key.(type) {
	case string:
		if k == "" {
			return table[k], nil
		}
		return table[fold(k)], nil
	case []any, map[string]any:
		if !Truthy(k) {
			return nil, Raise("TypeError", "unhashable type: '%s'", PyTypeName(k))
		}
	default:
		if !Truthy(k) {
			return nil, nil // no JSON object key equals a non-string
		}
	}
	return nil, noAttribute(key, method)
}

// GetKey is Python's m.get(key) for a key read from the DB, which may be
// any JSON value: a string looks up as itself; no other scalar equals a
// JSON object's (string) keys, so it finds nothing; a list or a dict is
// the TypeError Python raises for an unhashable key.
func GetKey(m map[string]any, key any) (any, error) {
	switch k := key.(type) {
	case string:
		return m[k], nil
	case []any, map[string]any:
		return nil, Raise("TypeError", "unhashable type: '%s'", PyTypeName(k))
	}
	return nil, nil
}
