package rtvi

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPythonReprOfHistory is the work of get_context_history on a
// 600-message conversation: SanitizeContext, then PythonRepr.
func BenchmarkPythonReprOfHistory(b *testing.B) {
	var list []any
	for i := 0; i < 200; i++ {
		list = append(list, orderedObject{{"role", "user"}, {"content", fmt.Sprintf("I'd like to book flight %d to Zürich — is it \"on time\"?\n", i)}})
		list = append(list, orderedObject{{"role", "assistant"}, {"content", []any{orderedObject{{"type", "text"}, {"text", strings.Repeat("Sure, ", 20) + "日本語 ok"}}}},
			{"tool_calls", []any{map[string]any{"id": "c1", "function": map[string]any{"name": "book", "arguments": `{"x": 1.5, "n": 3}`}}}}})
		list = append(list, map[string]any{"role": "tool", "content": []any{1.5, int64(42), true, nil, 1e21}})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pythonRepr(sanitizeContext(list)); err != nil {
			b.Fatal(err)
		}
	}
}
