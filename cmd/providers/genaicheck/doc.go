// Package genaicheck holds only tests: they unmarshal every domain's
// Gemini export (schema.GeminiGo) into google.golang.org/genai's Tool, as
// a Go Gemini user would, and check what the Go SDK then sends — every
// type one of its Type constants, no OBJECT without properties, no ARRAY
// without items, and each object's PropertyOrdering equal to the order of
// the tool's own schema (the parameter order at the top), since the SDK's
// Properties is a map. It is a nested module (see go.mod) so that the core
// module keeps its dependencies; .ci/run tests it.
package genaicheck
