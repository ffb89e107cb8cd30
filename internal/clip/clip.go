// Package clip shortens the texts a structured error result echoes (tool
// results, the RTVI bot's error responses, the MCP server's errors), so a
// 10 MiB argument never becomes a 10 MiB error.
package clip

import "unicode/utf8"

// Max is the most bytes of a text a structured error result carries:
// the message of tool.Failure, the field and error of each tool.Issue of a
// tool.ValidationResult, the text of the {"error": …} envelope tool.Call
// delivers for a Go error, and the tool name in the unknown-tool result.
// These texts echo what the model sent (an unknown key, an id not found),
// and a 10 MiB argument must not become a 10 MiB error. [String] shortens
// a longer text.
const Max = 1000

// String returns s when it is at most [Max] bytes; a longer s becomes its
// head, "...", and its tail, at most Max bytes in all (the head gets
// (Max-3)/2 bytes, the tail the rest), each cut at a UTF-8 character
// boundary so that valid UTF-8 stays valid — the way pydantic shortens a
// long input_value (first 25 and last 24 characters) in its error
// messages, with a larger budget so that ids and paths stay readable.
func String(s string) string {
	if len(s) <= Max {
		return s
	}
	const ellipsis = "..."
	budget := Max - len(ellipsis)
	head := budget / 2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - (budget - budget/2)
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + ellipsis + s[tail:]
}
