package tau2tools

import (
	"errors"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// Raise returns the Python exception pyvalue.Raise(typ, format, args...)
// as a tool's Go error (see [Exception]).
func Raise(typ, format string, args ...any) error {
	return pyvalue.StrError{Exc: pyvalue.Raise(typ, format, args...)}
}

// Exception returns a Python exception that err holds (a [*pyvalue.Error])
// as a tool's Go error, and any other err as it is. Its Error() is
// str(exc), the message alone, without the type: where a DB does not have
// the shape of the tau2 data model the live path delivers {"error":
// str(exc)} and a gold replay records the exception's text, as the Python
// original does. errors.As finds the *pyvalue.Error, with its Type.
func Exception(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*pyvalue.Error); ok { // what the kernel returns
		return pyvalue.StrError{Exc: e}
	}
	var e *pyvalue.Error
	if !errors.As(err, &e) {
		return err
	}
	return pyvalue.StrError{Exc: e}
}

func noAttribute(v any, attr string) error {
	return Raise("AttributeError", "'%s' object has no attribute '%s'", pyvalue.TypeName(v), attr)
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
	if !pyvalue.Truthy(v) {
		return map[string]any{}, nil
	}
	return AsDict(v)
}

// GetListOr is Python's (m.get(key) or []) where the result is iterated as
// a list: a missing or falsy value gives an empty list; any other value
// that is not a list is a TypeError.
func GetListOr(m map[string]any, key string) ([]any, error) {
	v := m[key]
	if !pyvalue.Truthy(v) {
		return nil, nil
	}
	if l, ok := v.([]any); ok {
		return l, nil
	}
	return nil, Raise("TypeError", "a list was expected for %s, not '%s'", pyvalue.Repr(key), pyvalue.TypeName(v))
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
// in place of lower (pyvalue.Lower, pyvalue.Upper, or a domain's own normalisation):
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
		if !pyvalue.Truthy(k) {
			return nil, Raise("TypeError", "unhashable type: '%s'", pyvalue.TypeName(k))
		}
	default:
		if !pyvalue.Truthy(k) {
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
		return nil, Raise("TypeError", "unhashable type: '%s'", pyvalue.TypeName(k))
	}
	return nil, nil
}
