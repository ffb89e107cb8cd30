package tool

import (
	"fmt"
	"reflect"
	"strings"
)

// MaxNameLen is the longest tool name accepted: the limit shared by OpenAI,
// Anthropic, Gemini and MCP.
const MaxNameLen = 64

// ValidateName reports whether name is a valid tool name: 1 to 64 ASCII
// letters, digits, '_' or '-', not starting with a digit or '-'
// (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$). The error wraps [ErrInvalidName].
func ValidateName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: the name is empty", ErrInvalidName)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%w: %q is longer than %d characters", ErrInvalidName, name, MaxNameLen)
	}
	for i := range len(name) {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if letter || i > 0 && (c >= '0' && c <= '9' || c == '-') {
			continue
		}
		return fmt.Errorf("%w: %q has %q at byte %d; names match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$", ErrInvalidName, name, c, i)
	}
	return nil
}

// TypeName returns the name of v's type, through pointers and without type
// arguments: TypeName(&EndConversation{}) is "EndConversation". Domains
// that name tools after their Python classes ("GetUserDetailsTool") use it
// to derive names from Go types of the same name.
func TypeName(v any) string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	name, _, _ := strings.Cut(t.Name(), "[")
	return name
}
