package pyvalue

import "fmt"

// Error is a Python exception value: its type name and its one string
// argument, as in ValueError("invalid literal for int() with base 10: 'x'").
//
// Error() is the last line of a Python traceback, "Type: msg" (just
// "Type" when Msg is empty), so a Go error message names the exception
// as Python would; [Error.Str] and [Error.Repr] are Python's str(exc)
// and repr(exc). Every function of this package that fails returns a
// *Error; use errors.As to get it.
type Error struct {
	Type string // "ValueError", "TypeError", "ZeroDivisionError", "OverflowError", "KeyError", …
	Msg  string // the argument the exception was raised with
}

// Raise returns a *Error of type typ whose message is formatted as by
// fmt.Sprintf.
func Raise(typ, format string, args ...any) *Error {
	return &Error{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// Error returns "Type: msg", or "Type" when the message is empty.
func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Type
	}
	return e.Type + ": " + e.Str()
}

// Str returns Python's str(exc): the message, except that a KeyError
// shows the repr of its key (str(KeyError('a')) is "'a'").
func (e *Error) Str() string {
	if e.Type == "KeyError" {
		return Repr(e.Msg)
	}
	return e.Msg
}

// Repr returns Python's repr(exc): Type('msg'), or Type() when the
// message is empty.
func (e *Error) Repr() string {
	if e.Msg == "" {
		return e.Type + "()"
	}
	return e.Type + "(" + Repr(e.Msg) + ")"
}

// typeError is the TypeError of an operation on values of the wrong types.
func typeError(format string, args ...any) *Error { return Raise("TypeError", format, args...) }

// StrError is a Python exception as a Go error whose Error() is str(exc),
// the message alone, without the type: the text a Python tool's caller
// sees when the tool raises (the live path delivers {"error": str(exc)}, a
// gold replay records it). Unwrap gives the *Error, with its Type.
type StrError struct{ Exc *Error }

// Error returns str(exc).
func (e StrError) Error() string { return e.Exc.Str() }

// Unwrap returns the exception.
func (e StrError) Unwrap() error { return e.Exc }
