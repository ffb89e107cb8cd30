package rtvi

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrMalformed is wrapped by every error for input that is not RTVI at
// all: a message [Dispatcher.Handle] cannot read (invalid JSON, a
// non-object, a missing or non-string "type" or "id", an oversized
// message), bytes [DecodeFrame] cannot read or that hold an empty frame,
// and a [Frame] that [Frame.Marshal] cannot encode. The error's text says
// which ("rtvi: malformed frame: offset 3: ...", "rtvi: empty frame: ...").
var ErrMalformed = errors.New("rtvi: malformed message")

// Names of the Python exception classes the built-in handlers raise
// (pyError.Kind). Replies that report a failure say "<Kind>: <message>", as
// the Python original prints its exceptions; a harness that matches on
// "ValueError" or "FileNotFoundError" keeps working against a Go bot.
const (
	kindValueError        = "ValueError"
	kindTypeError         = "TypeError"
	kindKeyError          = "KeyError"
	kindRuntimeError      = "RuntimeError"
	kindFileNotFoundError = "FileNotFoundError"
	kindPermissionError   = "PermissionError"
	kindAttributeError    = "AttributeError"
)

// Error is a handler failure with the Python exception kind it corresponds
// to. Its text is "<Kind>: <Message>". A [customHandler] returns one to choose
// the kind its error-response names; any other error is a RuntimeError.
// An Error wrapped in context (fmt.Errorf("lookup: %w", err)) names its
// kind once: the error-response reads "KeyError: lookup: 'x'", not
// "KeyError: lookup: KeyError: 'x'".
type pyError struct {
	Kind    string // the Python exception class: "ValueError", "KeyError", "FileNotFoundError", ...
	Message string // the exception's message (str(exc))
	Err     error  // the underlying error, if any
}

// Error returns "<Kind>: <Message>", the text the error-response carries,
// as Python prints an exception; Err is not part of it.
func (e *pyError) Error() string { return e.Kind + ": " + e.Message }

// Unwrap returns the underlying error.
func (e *pyError) Unwrap() error { return e.Err }

func errorf(kind, format string, args ...any) *pyError {
	err := fmt.Errorf(format, args...)
	return &pyError{Kind: kind, Message: err.Error(), Err: errors.Unwrap(err)}
}

// describe renders err the way the Python original reports an exception:
// "<Kind>: <message>". Errors that carry no kind are RuntimeErrors. An
// pyError wrapped in context names its kind once, in front, and keeps the
// context: fmt.Errorf("lookup: %w", &pyError{Kind: "KeyError", Message:
// "'x'"}) reads "KeyError: lookup: 'x'", as Python prints
// KeyError("lookup: 'x'"). The Error's own text is replaced by its
// Message where the wrapping text repeats it (the last place it does); a
// wrapper that does not repeat it keeps its text whole after the kind.
func describe(err error) string {
	if e, ok := err.(*pyError); ok {
		return e.Error()
	}
	var e *pyError
	if errors.As(err, &e) {
		text, own := err.Error(), e.Error()
		if i := strings.LastIndex(text, own); i >= 0 {
			text = text[:i] + e.Message + text[i+len(own):]
		}
		return e.Kind + ": " + text
	}
	return kindRuntimeError + ": " + err.Error()
}

func toValidUTF8(s string) string { return strings.ToValidUTF8(s, string(utf8.RuneError)) }
