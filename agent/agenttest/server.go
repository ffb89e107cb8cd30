package agenttest

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is the stand-in: an http.Handler answering Chat Completions
// requests from its script. It is safe for concurrent use; requests take
// turns in the order they arrive.
type Server struct {
	// Model is the model name answers carry; "" means "standin".
	Model string
	// Loop starts the script again when it runs out.
	Loop bool
	// Dialect, when set, is the only dialect answered ("openai",
	// "anthropic" or "gemini", as Request.Dialect); other routes get a
	// 404.
	Dialect string

	mu       sync.Mutex
	turns    []Turn
	next     int
	failed   int // errors answered for the current turn
	requests []Request
	created  int64
	thinking map[string]issued   // Anthropic: per tool_use id, the thinking block it came with
	sigs     map[string][]string // Gemini: per call (name and arguments), the signature it came with
}

// issued is a thinking block the stand-in sent.
type issued struct{ text, sig string }

// New returns a stand-in playing turns.
func New(turns ...Turn) *Server {
	return &Server{turns: turns, thinking: map[string]issued{}, sigs: map[string][]string{}, created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()}
}

// Append adds turns to the script.
func (s *Server) Append(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Requests returns the requests decoded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Served returns how many turns have been answered.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// take returns what to answer: a failure status, or the turn and its
// number.
func (s *Server) take(r Request) (status int, t Turn, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	i := s.next
	if s.Loop && len(s.turns) > 0 {
		i %= len(s.turns)
	}
	if i >= len(s.turns) {
		s.next++
		return 0, Turn{Text: "script finished"}, s.next
	}
	t = s.turns[i]
	if s.failed < len(t.Fault.Fail) {
		s.failed++
		return t.Fault.Fail[s.failed-1], t, s.next + 1
	}
	s.next++
	s.failed = 0
	return 0, t, s.next
}

// ServeHTTP answers POST /v1/chat/completions and /chat/completions
// (OpenAI), /v1/messages (Anthropic), and
// /v1beta/models/{model}:generateContent and :streamGenerateContent
// (Gemini), each in its dialect's shapes and errors.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	dialect, model, stream := route(req.URL.Path)
	if dialect == "" || (s.Dialect != "" && s.Dialect != dialect) {
		writeError(w, http.StatusNotFound, "not_found_error", "no route "+req.URL.Path, "")
		return
	}
	fail := func(status int, msg string) {
		switch dialect {
		case dialectAnthropic:
			writeAnthropicError(w, status, msg)
		case dialectGemini:
			writeGeminiError(w, status, msg)
		default:
			writeError(w, status, errorType(status), msg, "")
		}
	}
	if req.Method != http.MethodPost {
		fail(http.StatusMethodNotAllowed, "use POST")
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
	if err != nil {
		fail(http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	var r Request
	switch dialect {
	case dialectAnthropic:
		r, err = decodeAnthropicRequest(body)
		if err == nil {
			err = s.checkThinking(r.anthropic)
		}
	case dialectGemini:
		r, err = decodeGeminiRequest(body)
		r.Model, r.Stream = model, stream
		if err == nil {
			err = s.checkSignatures(r.gemini)
		}
	default:
		r, err = decodeRequest(body)
	}
	if err != nil {
		fail(http.StatusBadRequest, err.Error())
		return
	}
	status, t, n := s.take(r)
	if status != 0 {
		if t.Fault.RetryAfter != "" && (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) {
			w.Header().Set("Retry-After", t.Fault.RetryAfter)
		}
		fail(status, "scripted fault: HTTP "+strconv.Itoa(status))
		return
	}
	if t.Fault.Delay > 0 {
		timer := time.NewTimer(t.Fault.Delay)
		select {
		case <-timer.C:
		case <-req.Context().Done():
			timer.Stop()
			return
		}
	}
	a := answer{turn: t, id: "chatcmpl-standin-" + strconv.Itoa(n), model: s.model(r), created: s.created, usage: usageOf(t, r)}
	switch dialect {
	case dialectAnthropic:
		a.id = "msg_standin_" + strconv.Itoa(n)
		if t.Thinking != "" {
			a.sig = signature("anthropic", n)
			s.issueThinking(t, a.sig)
		}
		if r.Stream {
			a.anthropicStream(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(a.anthropicMessage())
	case dialectGemini:
		a.id = "standin-" + strconv.Itoa(n)
		if t.Thinking != "" {
			a.sig = base64.StdEncoding.EncodeToString([]byte(signature("gemini", n)))
			s.issueSignature(t, a.sig)
		}
		if r.Stream {
			a.geminiStream(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(a.geminiResponse(a.geminiParts(), true))
	default:
		if r.Stream {
			a.stream(w, r.IncludeUsage)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(a.completion())
	}
}

// route names the dialect of a path, with the model and whether it
// streams for Gemini (whose model is in the path).
func route(path string) (dialect, model string, stream bool) {
	switch path {
	case "/v1/chat/completions", "/chat/completions":
		return dialectOpenAI, "", false
	case "/v1/messages":
		return dialectAnthropic, "", false
	}
	for _, prefix := range []string{"/v1beta/models/", "/v1/models/", "/v1alpha/models/"} {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok {
			continue
		}
		m, method, ok := strings.Cut(rest, ":")
		if !ok || m == "" {
			return "", "", false
		}
		switch method {
		case "generateContent":
			return dialectGemini, m, false
		case "streamGenerateContent":
			return dialectGemini, m, true
		}
	}
	return "", "", false
}

func (s *Server) model(r Request) string {
	if s.Model != "" {
		return s.Model
	}
	if r.Model != "" {
		return r.Model
	}
	return "standin"
}

func errorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	case status == http.StatusUnauthorized:
		return "authentication_error"
	}
	return "invalid_request_error"
}

// writeError writes OpenAI's error body.
func writeError(w http.ResponseWriter, status int, typ, msg, code string) {
	var c any
	if code != "" {
		c = code
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": c}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func usageOf(t Turn, r Request) Usage {
	if t.Usage != nil {
		u := *t.Usage
		if u.TotalTokens == 0 {
			u.TotalTokens = u.PromptTokens + u.CompletionTokens
		}
		return u
	}
	out := len(t.Text)
	for _, c := range t.Calls {
		out += len(c.Name) + len(c.Arguments)
	}
	u := Usage{PromptTokens: (len(r.Body) + 3) / 4, CompletionTokens: (out + 3) / 4}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}
