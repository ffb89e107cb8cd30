package bridge

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/voiceeval/schematools/internal/pyjson"
	"github.com/voiceeval/schematools/internal/pyvalue"
	"github.com/voiceeval/schematools/internal/rtviwire"
)

// What NeMo's bridge sends, byte for byte but for the ids' timestamps:
// json.dumps of a dict built in this order, Python's default separators,
// every non-ASCII character escaped.

// The bridge's client-ready: the RTVI version it announces and its
// "about".
const (
	clientVersion        = "1.1.0"
	clientLibrary        = "evaluation-bridge"
	clientLibraryVersion = "1.0.0"
)

// idClock makes the ids: prefix + Python's repr of
// datetime.now().timestamp(), seconds with microseconds. Two ids of one
// connection never repeat: a timestamp not after the last one is moved a
// microsecond past it.
type idClock struct {
	now  func() time.Time
	mu   sync.Mutex
	last int64 // microseconds
}

func (c *idClock) id(prefix string) string {
	t := c.now()
	us := t.Unix()*1e6 + int64(t.Nanosecond()/1000)
	c.mu.Lock()
	if us <= c.last {
		us = c.last + 1
	}
	c.last = us
	c.mu.Unlock()
	// As datetime.timestamp() computes it: whole seconds plus microsecond / 1e6.
	sec, micro := us/1e6, us%1e6
	if micro < 0 {
		sec, micro = sec-1, micro+1e6
	}
	f := float64(sec) + float64(micro)/1e6
	return prefix + pyvalue.Repr(f)
}

// envelope writes {"label": "rtvi-ai", "type": typ, "id": id, "data": data}
// with data already encoded.
func envelope(typ, id string, data []byte) ([]byte, error) {
	b := []byte(`{"label": "` + rtviwire.Label + `", "type": `)
	b, _ = pyjson.AppendString(b, typ)
	b = append(b, `, "id": `...)
	b, err := pyjson.AppendString(b, id)
	if err != nil {
		return nil, err
	}
	b = append(b, `, "data": `...)
	b = append(b, data...)
	return append(b, '}'), nil
}

// clientMessage writes a client-message whose data is {"t": t, "d": d},
// d given as (key, value) pairs in order.
func clientMessage(id, t string, d ...field) ([]byte, error) {
	data, err := object(field{"t", t}, field{"d", fields(d)})
	if err != nil {
		return nil, err
	}
	return envelope(rtviwire.TypeClientMessage, id, data)
}

// field is one key and value of an object the bridge writes.
type field struct {
	key   string
	value any
}

// fields is an object given as its fields in order.
type fields []field

// object writes the JSON object of fs, in order.
func object(fs ...field) ([]byte, error) {
	b := []byte{'{'}
	for i, f := range fs {
		if i > 0 {
			b = append(b, ", "...)
		}
		var err error
		if b, err = pyjson.AppendString(b, f.key); err != nil {
			return nil, err
		}
		b = append(b, ": "...)
		if b, err = appendValue(b, f.value); err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
	}
	return append(b, '}'), nil
}

// appendValue writes v as json.dumps writes the Python value it stands
// for. JSON text (json.RawMessage) keeps its keys' order; other values go
// through encoding/json first (struct fields in order, map keys sorted).
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case fields:
		o, err := object(x...)
		return append(b, o...), err
	case rawJSON:
		return append(b, x...), nil
	case string:
		return pyjson.AppendString(b, x)
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case json.RawMessage:
		tree, err := pyvalue.Loads(x)
		if err != nil {
			return nil, fmt.Errorf("bridge: invalid JSON: %w", err)
		}
		return pyvalue.AppendJSON(b, tree, pyjson.Default, false)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("bridge: %w", err)
	}
	return appendValue(b, json.RawMessage(raw))
}

// pythonJSON returns json.dumps(v) as NeMo's Python writes it: default
// separators (", " and ": "), non-ASCII escaped, keys in the order of v —
// the order of the text for JSON text (json.RawMessage or []byte), of the
// fields for a struct, sorted for a Go map.
func pythonJSON(v any) (string, error) {
	if b, ok := v.([]byte); ok {
		v = json.RawMessage(b)
	}
	b, err := appendValue(nil, v)
	return string(b), err
}

// toolsJSON returns the "tools" string of update_system_prompt for a
// scenario's tool map (tool name → constructor arguments), as NeMo's
// to_tools_json_string makes it: json.dumps(tools), or "{}" when the map
// is empty or absent (nil, JSON null, {}). tools is what [pythonJSON]
// takes; JSON text keeps the scenario's order of tools.
func toolsJSON(tools any) (string, error) {
	s, err := pythonJSON(tools)
	if err != nil {
		return "", err
	}
	if s == "null" || s == "{}" {
		return "{}", nil
	}
	if len(s) == 0 || s[0] != '{' {
		return "", fmt.Errorf("bridge: tools must be a JSON object, got %.40s", s)
	}
	return s, nil
}
