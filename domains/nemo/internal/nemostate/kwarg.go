package nemostate

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/voiceeval/schematools/internal/pyvalue"
)

// JSONKwarg reads a construction argument that the original takes as JSON
// text or, already parsed, as the value itself (json.loads(x) if
// isinstance(x, str) else x): a JSON string is parsed as the text it
// holds, anything else is the value; an absent one is def's text. The
// result is in ordered form, in the text's key order.
func JSONKwarg(name string, raw json.RawMessage, def string) (any, error) {
	text := []byte(def)
	if len(bytes.TrimSpace(raw)) > 0 {
		text = raw
		var s string
		if json.Unmarshal(raw, &s) == nil {
			text = []byte(s)
		}
	}
	v, err := pyvalue.Loads(text)
	if err != nil {
		return nil, fmt.Errorf("%s: json.loads: %w", name, err)
	}
	return FromValue(v), nil
}
