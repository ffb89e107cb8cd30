package bridge

import (
	"fmt"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
)

// History is a bot's answer to get_context_history: {"context": "<the
// Python literal of its LLM context>"}. The zero History is what NeMo's
// bridge saves when it got none (an error-response, a timeout, an answer
// it could not read): context "[]".
type History struct {
	// Reply is the answer's d; its "context" is the Python literal text.
	Reply map[string]any
	// MaxDepth bounds the nesting of the JSON a str context holds; 0
	// means 900, as [Options.MaxDepth]. Deeper JSON is an error wrapping ErrBudget:
	// json.loads raises RecursionError near 1000, and NeMo's bridge then
	// logs it and writes the str, a context no judge can read.
	MaxDepth int
}

// defaultMaxJSONBytes bounds History.JSON's output: indentation grows
// with the square of the nesting, so a 1 MiB context can ask for
// gigabytes.
const defaultMaxJSONBytes = 256 << 20

// contextText returns the "context" text; "[]" when there is none, as the
// bridge's context_history.get("context", "[]").
func (h *History) contextText() (string, error) {
	v, ok := h.Reply["context"]
	if !ok {
		return "[]", nil
	}
	s, ok := v.(string)
	if !ok {
		// eval() of a non-str raises TypeError.
		return "", fmt.Errorf("%w: context is a %s, not a str", ErrUnexpectedReply, pyvalue.TypeName(v))
	}
	return s, nil
}

// Value returns what the bridge makes of the context: the Python literal
// read ([parseLiteral]), and when that is a str, the JSON it holds
// (json.loads), or the str itself when it is not JSON, as the bridge logs
// the error and keeps it. Dicts come out as map[string]any.
func (h *History) Value() (any, error) {
	v, err := h.ordered()
	if err != nil {
		return nil, err
	}
	return plain(v), nil
}

// JSON returns the bytes NeMo's runner writes to llm_context.json:
// json.dump(Value, indent=2), keys in the context's order, non-ASCII
// escaped, no final newline. Text longer than limit bytes (0 means 256 MiB:
// indentation grows with the square of the nesting, so a 1 MiB context
// can ask for gigabytes) is an error wrapping ErrBudget, found before any
// of it is written.
func (h *History) JSON(limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = defaultMaxJSONBytes
	}
	v, err := h.ordered()
	if err != nil {
		return nil, err
	}
	compact, err := pyvalue.AppendJSON(nil, v, pyjson.Compact, false)
	if err != nil {
		return nil, fmt.Errorf("bridge: the context cannot be written as JSON: %w", err)
	}
	if n := indentedSize(compact); n > limit {
		return nil, fmt.Errorf("%w: the context indented is %d bytes, past %d", ErrBudget, n, limit)
	}
	return indentJSON(compact), nil
}

func (h *History) ordered() (any, error) {
	text, err := h.contextText()
	if err != nil {
		return nil, err
	}
	v, err := pyvalue.ParseLiteral(text)
	if err != nil {
		return nil, fmt.Errorf("bridge: the context is not a Python literal: %w", err)
	}
	if s, ok := v.(string); ok {
		depth := h.MaxDepth
		if depth <= 0 {
			depth = defaultMaxDepth
		}
		if n := pyjson.Nesting([]byte(s)); n > depth {
			return nil, fmt.Errorf("%w: the context holds JSON nested %d deep, past %d (Python's json.loads raises RecursionError near 1000)", ErrBudget, n, depth)
		}
		if w, err := pyvalue.Loads([]byte(s)); err == nil {
			return w, nil
		}
	}
	return v, nil
}

// parseLiteral reads the text of a Python literal as NeMo's bridge's
// eval() reads get_context_history's context, without evaluating
// anything: None, True, False, str and bytes literals with Python's
// escapes, ints (json.Number, exact), floats (float64), lists and tuples
// ([]any), dicts with str keys (map[string]any). Names (inf, nan), calls,
// operators but unary signs, sets and complex numbers are errors, as is
// nesting deeper than 200 brackets (CPython's limit).
func parseLiteral(text string) (any, error) {
	v, err := pyvalue.ParseLiteral(text)
	if err != nil {
		return nil, err
	}
	return plain(v), nil
}

// plain turns the ordered dicts of pyvalue into maps.
func plain(v any) any {
	switch x := v.(type) {
	case pyvalue.Dict:
		m := make(map[string]any, len(x))
		for _, it := range x.Items() {
			m[it.Key] = plain(it.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// indentedSize is the length of indentJSON(src), counted without writing
// it.
func indentedSize(src []byte) int64 {
	var n int64
	indent(src, func(b []byte) { n += int64(len(b)) })
	return n
}

// indentJSON rewrites compact JSON as Python's json.dump(indent=2) writes
// it: a newline and two spaces per level after each opening bracket and
// comma, ": " after keys, empty containers as [] and {}.
func indentJSON(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(src)/4)
	indent(src, func(b []byte) { out = append(out, b...) })
	return out
}

// indent hands put the pieces of indentJSON(src), in order.
func indent(src []byte, put func([]byte)) {
	var spaces []byte
	depth := 0
	newline := func() {
		put([]byte{'\n'})
		if n := 2 * max(depth, 0); n > 0 {
			for len(spaces) < n {
				spaces = append(spaces, ' ')
			}
			put(spaces[:n])
		}
	}
	inString, escaped := false, false
	run := 0 // start of the bytes not yet put
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				i++
				continue
			}
			put(src[run : i+1])
			run = i + 1
			depth++
			newline()
		case '}', ']':
			put(src[run:i])
			run = i
			depth--
			newline()
		case ',':
			put(src[run : i+1])
			run = i + 1
			newline()
		case ':':
			put(src[run : i+1])
			run = i + 1
			put([]byte{' '})
		}
	}
	put(src[run:])
}

// Summary is a bot's answer to get_scenario_summary.
type Summary struct {
	// Actions is "actions", the bot's action log (nil when absent or not
	// a list).
	Actions []any
	// DBHash is "db_hash", nil when absent or null (an empty DB).
	DBHash *string
	// DB is "db", sent when include_db was set (nil otherwise or when
	// empty).
	DB any
	// Reply is the whole answer.
	Reply map[string]any
}
