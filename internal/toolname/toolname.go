// Package toolname checks tool (and registry domain) names.
package toolname

import "fmt"

// maxLen is the longest tool name accepted: the limit shared by
// OpenAI, Anthropic, Gemini and MCP.
const maxLen = 64

// Validate reports whether name is a valid tool name: 1 to 64 ASCII
// letters, digits, '_' or '-', not starting with a digit or '-'
// (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$). The error says what is wrong.
func Validate(name string) error {
	if name == "" {
		return fmt.Errorf("invalid tool name: the name is empty")
	}
	if len(name) > maxLen {
		return fmt.Errorf("invalid tool name: %q is longer than %d characters", name, maxLen)
	}
	for i := range len(name) {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if letter || i > 0 && (c >= '0' && c <= '9' || c == '-') {
			continue
		}
		return fmt.Errorf("invalid tool name: %q has %q at byte %d; names match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$", name, c, i)
	}
	return nil
}
