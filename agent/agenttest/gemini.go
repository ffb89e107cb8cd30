package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// geminiRequest is a decoded generateContent request: the fields the
// stand-in reads. The model is in the path.
type geminiRequest struct {
	Contents          []geminiContent
	SystemInstruction json.RawMessage // nil when absent
}

// geminiContent is one content (turn) of a request.
type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

// geminiPart is one part as the client sent it.
type geminiPart struct {
	Text             string                `json:"text,omitempty"`
	Thought          bool                  `json:"thought,omitempty"`
	ThoughtSignature string                `json:"thoughtSignature,omitempty"`
	FunctionCall     *geminiFunctionCall   `json:"functionCall,omitempty"`
	FunctionResponse *geminiFunctionResult `json:"functionResponse,omitempty"`
}

// geminiFunctionCall is a functionCall part's call.
type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// geminiFunctionResult is a functionResponse part's result.
type geminiFunctionResult struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// decodeGeminiRequest decodes a generateContent body, refusing what the
// API refuses with a 400: a body that is not one JSON object, no
// contents, a role other than user and model, a part with no data, a
// function declaration without a name, a functionResponse without a name
// or whose response is not a JSON object, and a turn answering a model
// turn's calls with another number of functionResponse parts. Model and
// Stream are the caller's to set from the path.
func decodeGeminiRequest(body []byte) (Request, error) {
	if len(body) > maxBody {
		return Request{}, fmt.Errorf("request body of %d bytes is over the %d-byte limit", len(body), maxBody)
	}
	var w struct {
		Contents []geminiContent   `json:"contents"`
		System   json.RawMessage   `json:"systemInstruction"`
		Tools    []json.RawMessage `json:"tools"`
		Config   json.RawMessage   `json:"toolConfig"`
	}
	if err := decodeOne(body, &w); err != nil {
		return Request{}, err
	}
	if len(w.Contents) == 0 {
		return Request{}, fmt.Errorf("* GenerateContentRequest.contents: contents is not specified")
	}
	gr := &geminiRequest{Contents: w.Contents, SystemInstruction: w.System}
	r := Request{Dialect: dialectGemini, Body: body, ToolChoice: w.Config, gemini: gr}
	for i, raw := range w.Tools {
		var t struct {
			Decls []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return Request{}, fmt.Errorf("tools[%d]: %w", i, err)
		}
		for j, d := range t.Decls {
			if d.Name == "" {
				return Request{}, fmt.Errorf("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Name cannot be empty", i, j)
			}
		}
		r.Tools = append(r.Tools, raw)
	}
	calls := 0 // function calls of the model turn before
	for i, c := range w.Contents {
		if c.Role != "user" && c.Role != "model" {
			return Request{}, fmt.Errorf("* GenerateContentRequest.contents[%d].role: Please use a valid role: user, model", i)
		}
		if len(c.Parts) == 0 {
			return Request{}, fmt.Errorf("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty", i)
		}
		responses, ownCalls := 0, 0
		for j, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				if p.FunctionCall.Name == "" {
					return Request{}, fmt.Errorf("* GenerateContentRequest.contents[%d].parts[%d].function_call.name: Name cannot be empty", i, j)
				}
				ownCalls++
			case p.FunctionResponse != nil:
				fr := p.FunctionResponse
				if fr.Name == "" {
					return Request{}, fmt.Errorf("* GenerateContentRequest.contents[%d].parts[%d].function_response.name: Name cannot be empty", i, j)
				}
				if t := strings.TrimSpace(string(fr.Response)); t == "" || t[0] != '{' {
					return Request{}, apiMessage(fmt.Sprintf("Invalid JSON payload received. contents[%d].parts[%d].function_response.response: a Struct (JSON object) is required", i, j))
				}
				responses++
			}
		}
		if calls > 0 && responses != calls {
			return Request{}, apiMessage(fmt.Sprintf("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (contents[%d]: %d responses for %d calls).", i, responses, calls))
		}
		calls = ownCalls
	}
	return r, nil
}

// callKey names a call by its name and its arguments (keys sorted).
func callKey(name string, args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	return name + "\x00" + string(b)
}

// issueSignature records the signature a turn's first call came with.
func (s *Server) issueSignature(t Turn, sig string) {
	if len(t.Calls) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := t.Calls[0]
	k := callKey(c.Name, inputObjectGemini(c.Arguments))
	s.sigs[k] = append(s.sigs[k], sig)
}

// checkSignatures refuses a model turn holding a call the stand-in sent
// with a thought signature, without that signature (one of them, for a
// call sent more than once) on its part.
func (s *Server) checkSignatures(gr *geminiRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range gr.Contents {
		if c.Role != "model" {
			continue
		}
		pos := 0
		for _, p := range c.Parts {
			if p.FunctionCall == nil {
				continue
			}
			pos++
			want, ok := s.sigs[callKey(p.FunctionCall.Name, p.FunctionCall.Args)]
			if ok && !slices.Contains(want, p.ThoughtSignature) {
				return apiMessage(fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", p.FunctionCall.Name, pos))
			}
		}
	}
	return nil
}

// inputObjectGemini is a call's arguments as Gemini's args: the JSON
// object as written; anything else (Gemini only sends objects) is {}.
func inputObjectGemini(args string) json.RawMessage {
	t := strings.TrimSpace(args)
	if t != "" && t[0] == '{' && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return json.RawMessage("{}")
}

type geminiPartOut struct {
	Text             *string         `json:"text,omitempty"`
	Thought          bool            `json:"thought,omitempty"`
	ThoughtSignature string          `json:"thoughtSignature,omitempty"`
	FunctionCall     json.RawMessage `json:"functionCall,omitempty"`
}

// geminiParts returns the turn's parts, in the order Gemini sends them:
// the thought, the text, the calls (the first call, else the first text
// part, carrying the signature).
func (a answer) geminiParts() []geminiPartOut {
	return a.geminiPartsPiece(0)
}

// geminiPartsPiece is geminiParts with text cut in pieces of n bytes (0:
// whole).
func (a answer) geminiPartsPiece(n int) []geminiPartOut {
	var parts []geminiPartOut
	if a.turn.Thinking != "" {
		th := a.turn.Thinking
		parts = append(parts, geminiPartOut{Text: &th, Thought: true})
	}
	textAt := len(parts)
	if a.turn.Text != "" {
		ps := []string{a.turn.Text}
		if n > 0 {
			ps = pieces(a.turn.Text, n)
		}
		for _, p := range ps {
			parts = append(parts, geminiPartOut{Text: &p})
		}
	}
	for i, c := range a.turn.Calls {
		fc := map[string]any{"name": c.Name, "args": inputObjectGemini(c.Arguments)}
		if a.turn.Quirks.CallIDs {
			fc["id"] = c.ID
		}
		b, _ := json.Marshal(fc)
		p := geminiPartOut{FunctionCall: b}
		if i == 0 {
			p.ThoughtSignature = a.sig
		}
		parts = append(parts, p)
	}
	if len(a.turn.Calls) == 0 && a.sig != "" && textAt < len(parts) {
		parts[textAt].ThoughtSignature = a.sig
	}
	if len(parts) == 0 {
		empty := ""
		parts = append(parts, geminiPartOut{Text: &empty})
	}
	return parts
}

func (a answer) geminiFinish() string {
	switch a.finish() {
	case "tool_calls", "stop":
		return "STOP"
	case "length":
		return "MAX_TOKENS"
	default:
		return a.finish()
	}
}

// geminiUsage is the usageMetadata: promptTokenCount includes the cached
// tokens; the total counts the thoughts too.
func (a answer) geminiUsage(full bool) map[string]any {
	u := a.usage
	m := map[string]any{"promptTokenCount": u.PromptTokens}
	if !full {
		return m
	}
	m["candidatesTokenCount"] = u.CompletionTokens
	m["totalTokenCount"] = u.PromptTokens + u.CompletionTokens + u.ReasoningTokens
	if u.CachedTokens > 0 {
		m["cachedContentTokenCount"] = u.CachedTokens
	}
	if u.ReasoningTokens > 0 {
		m["thoughtsTokenCount"] = u.ReasoningTokens
	}
	return m
}

// geminiResponse is one GenerateContentResponse holding parts; last adds
// the finishReason and the whole usage.
func (a answer) geminiResponse(parts []geminiPartOut, last bool) []byte {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if last && !a.turn.Fault.NoFinish {
		cand["finishReason"] = a.geminiFinish()
	}
	b, _ := json.Marshal(map[string]any{"candidates": []any{cand}, "usageMetadata": a.geminiUsage(last), "modelVersion": a.model, "responseId": a.id})
	return b
}

// geminiStream writes the turn as :streamGenerateContent?alt=sse does:
// one response per part (text in pieces, each call whole), the last with
// the finishReason and the whole usage.
func (a answer) geminiStream(w http.ResponseWriter) {
	send := a.sse(w, false)
	if a.turn.Fault.Malformed {
		send("", json.RawMessage(`{"candidates": [{"content": {"parts": [{"text": "unterminated`))
	}
	parts := a.geminiPartsPiece(a.piece())
	for i, p := range parts {
		send("", json.RawMessage(a.geminiResponse([]geminiPartOut{p}, i == len(parts)-1)))
	}
}

// geminiStatus is the status name Google's APIs give an HTTP status.
func geminiStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	}
	return "INTERNAL"
}

func writeGeminiError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": geminiStatus(status)}})
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
