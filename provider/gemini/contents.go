package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/voiceeval/schematools/agent"
	"github.com/voiceeval/schematools/provider/internal/turns"
	"github.com/voiceeval/schematools/tool"
)

// contentsOf renders a pipecat-shaped context as Gemini takes it: the
// leading system messages as the system instruction (nil when there are
// none), and the contents.
//
//   - A response is the assistant's text message and the per-call
//     assistant/tool pairs after it; a pair whose assistant message
//     carries Native of this adapter starts a response of its own, other
//     consecutive pairs are one response (parallel calls). A response is
//     one model content — its parts as received (thought signatures
//     included) when Native holds them and they call the context's calls,
//     else its thought parts, the text and a functionCall per call, the
//     first carrying the response's first signature — then one user
//     content with a functionResponse per result.
//   - A functionResponse carries the call's id unless the adapter made it
//     up ([madeUpIDPrefix]); its response is the result's JSON object, or
//     {"output": value} for any other result ("COMPLETED", a list, a
//     number: Gemini takes only objects).
//   - User text, and system messages after the first other message, are
//     user text parts, merged into the user content before them.
func contentsOf(msgs []agent.Message) (*genai.Content, []*genai.Content, error) {
	var system *genai.Content
	i := 0
	for ; i < len(msgs) && msgs[i].Role == agent.RoleSystem; i++ {
		if system == nil {
			system = &genai.Content{}
		}
		system.Parts = append(system.Parts, &genai.Part{Text: msgs[i].Content})
	}
	var out []*genai.Content
	add := func(role string, parts ...*genai.Part) {
		if len(parts) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			return
		}
		out = append(out, &genai.Content{Role: role, Parts: parts})
	}
	for _, st := range turns.Regroup(msgs[i:], nativeKey) {
		if !st.Response {
			m := st.Message
			if m.Role == agent.RoleTool {
				add(genai.RoleUser, &genai.Part{Text: "Tool result (" + m.ToolCallID + "): " + m.Content})
			} else if m.Content != "" {
				add(genai.RoleUser, &genai.Part{Text: m.Content})
			}
			continue
		}
		parts, err := modelParts(st.Native, st.Text, st.Calls)
		if err != nil {
			return nil, nil, fmt.Errorf("gemini: message %d: %w", i+st.Start, err)
		}
		add(genai.RoleModel, parts...)
		names := map[string]string{}
		for _, c := range st.Calls {
			names[c.ID] = c.Name
		}
		for _, r := range st.Results {
			fr := &genai.FunctionResponse{Name: names[r.ToolCallID], Response: responseOf(r.Content)}
			if !strings.HasPrefix(r.ToolCallID, madeUpIDPrefix) {
				fr.ID = r.ToolCallID
			}
			add(genai.RoleUser, &genai.Part{FunctionResponse: fr})
		}
	}
	return system, out, nil
}

// modelParts is one response's parts: native as it is when its calls are
// the context's (by name, and by id when it has ids), else native's
// thought parts, the text and the calls.
func modelParts(native json.RawMessage, text string, calls []tool.ModelCall) ([]*genai.Part, error) {
	var nps []*genai.Part
	if len(native) > 0 {
		if err := json.Unmarshal(native, &nps); err != nil {
			return nil, fmt.Errorf("native parts: %w", err)
		}
	}
	var ncalls []*genai.FunctionCall
	var kept []*genai.Part
	var sig []byte
	for _, p := range nps {
		if p == nil {
			continue
		}
		if p.FunctionCall != nil {
			ncalls = append(ncalls, p.FunctionCall)
		}
		if p.Thought {
			kept = append(kept, p)
		}
		if sig == nil && len(p.ThoughtSignature) > 0 {
			sig = p.ThoughtSignature
		}
	}
	same := len(nps) > 0 && len(ncalls) == len(calls)
	for k := 0; same && k < len(calls); k++ {
		same = ncalls[k].Name == calls[k].Name && (ncalls[k].ID == "" || ncalls[k].ID == calls[k].ID)
	}
	if same {
		return nps, nil
	}
	out := kept
	if text != "" {
		out = append(out, &genai.Part{Text: text})
	}
	for k, c := range calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil || args == nil {
			args = map[string]any{}
		}
		fc := &genai.FunctionCall{Name: c.Name, Args: args}
		if !strings.HasPrefix(c.ID, madeUpIDPrefix) {
			fc.ID = c.ID
		}
		p := &genai.Part{FunctionCall: fc}
		if k == 0 {
			p.ThoughtSignature = sig
		}
		out = append(out, p)
	}
	if len(calls) == 0 && sig != nil && len(out) > len(kept) {
		out[len(kept)].ThoughtSignature = sig
	}
	return out, nil
}

// responseOf is a result's content as a functionResponse's response: the
// JSON object it holds, else {"output": the value, or the text when it is
// not JSON}.
func responseOf(content string) map[string]any {
	dec := json.NewDecoder(bytes.NewReader([]byte(content)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return map[string]any{"output": content}
	}
	if obj, ok := v.(map[string]any); ok {
		return obj
	}
	return map[string]any{"output": v}
}
