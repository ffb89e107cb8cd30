package agenttest

import (
	"encoding/json"
	"testing"
)

// The fuzz seeds' bodies (the external tests' body, anthropicBody and
// geminiBody).
const (
	fuzzBody          = `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"b":{},"a":{}}}}}]`
	fuzzAnthropicBody = `{"model":"m","max_tokens":16,"messages":[{"role":"user","content":"hi"}]`
	fuzzGeminiBody    = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]`
)

// FuzzDecodeRequest: any body is decoded or refused with an error, never
// a panic; a decoded request has a model and messages with known roles.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		fuzzBody + `}`, fuzzBody + `,"stream":true,"stream_options":{"include_usage":true}}`,
		`{"model":"m","messages":[{"role":"tool","tool_call_id":"c","content":"{}"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"x"}]}],"tool_choice":"auto"}`,
		``, `null`, `{"model":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRequest(b)
		if err != nil {
			return
		}
		if r.Model == "" || len(r.Messages) == 0 {
			t.Fatalf("accepted a request without model or messages: %q", b)
		}
		for _, m := range r.Messages {
			_ = m.Text()
			if m.Role == "tool" && m.ToolCallID == "" {
				t.Fatalf("accepted a tool message without id: %q", b)
			}
		}
	})
}

// FuzzDecodeAnthropicRequest: any body is decoded or refused with an
// error, never a panic; a decoded one has a model, max_tokens and
// messages whose roles are user or assistant.
func FuzzDecodeAnthropicRequest(f *testing.F) {
	for _, s := range []string{
		fuzzAnthropicBody + `}`,
		`{"model":"m","max_tokens":1,"system":[{"type":"text","text":"s"}],"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"a","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"1"}]}],"tools":[{"name":"f","input_schema":{}}],"stream":true}`,
		``, `null`, `{"model":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeAnthropicRequest(b)
		if err != nil {
			return
		}
		if r.Model == "" || r.anthropic.MaxTokens < 1 || len(r.anthropic.Messages) == 0 {
			t.Fatalf("accepted %q", b)
		}
		for _, m := range r.anthropic.Messages {
			if m.Role != "user" && m.Role != "assistant" {
				t.Fatalf("accepted role %q", m.Role)
			}
		}
	})
}

// FuzzDecodeGeminiRequest: any body is decoded or refused with an error,
// never a panic; a decoded one has contents with known roles, and every
// functionResponse's response is an object.
func FuzzDecodeGeminiRequest(f *testing.F) {
	for _, s := range []string{
		fuzzGeminiBody + `}`,
		`{"contents":[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"thought":true,"text":"t"},{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2ln"}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":1}}}]}],"systemInstruction":{"parts":[{"text":"s"}]},"tools":[{"functionDeclarations":[{"name":"f"}]}]}`,
		``, `null`, `{"contents":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeGeminiRequest(b)
		if err != nil {
			return
		}
		if len(r.gemini.Contents) == 0 {
			t.Fatalf("accepted %q", b)
		}
		for _, c := range r.gemini.Contents {
			if c.Role != "user" && c.Role != "model" {
				t.Fatalf("accepted role %q", c.Role)
			}
			for _, p := range c.Parts {
				if fr := p.FunctionResponse; fr != nil && !json.Valid(fr.Response) {
					t.Fatalf("accepted response %q", fr.Response)
				}
			}
		}
	})
}
