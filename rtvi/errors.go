package rtvi

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrMalformed is wrapped by the error [Dispatcher.Handle] returns for
// input that is not an RTVI message at all: invalid JSON, a non-object, a
// missing or non-string "type" or "id", or an oversized message.
var ErrMalformed = errors.New("rtvi: malformed message")

// Names of Python exception classes. Replies that report a failure say
// "<Kind>: <message>", as the Python original prints its exceptions; a
// harness that matches on "ValueError" or "FileNotFoundError" keeps
// working against a Go bot.
const (
	KindValueError        = "ValueError"
	KindTypeError         = "TypeError"
	KindKeyError          = "KeyError"
	KindRuntimeError      = "RuntimeError"
	KindFileNotFoundError = "FileNotFoundError"
	KindPermissionError   = "PermissionError"
	KindAttributeError    = "AttributeError"
)

// Error is a handler failure with the Python exception kind it corresponds
// to. Its text is "<Kind>: <Message>".
type Error struct {
	Kind    string
	Message string
	Err     error // the underlying error, if any
}

func (e *Error) Error() string { return e.Kind + ": " + e.Message }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func errorf(kind, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Kind: kind, Message: err.Error(), Err: errors.Unwrap(err)}
}

// describe renders err the way the Python original reports an exception:
// "<Kind>: <message>". Errors that carry no kind are RuntimeErrors.
func describe(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Error()
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind + ": " + err.Error() // keep the outer context
	}
	return KindRuntimeError + ": " + err.Error()
}

func toValidUTF8(s string) string { return strings.ToValidUTF8(s, string(utf8.RuneError)) }
