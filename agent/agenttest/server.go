package agenttest

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
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

	mu       sync.Mutex
	turns    []Turn
	next     int
	failed   int // errors answered for the current turn
	requests []Request
	created  int64
}

// New returns a stand-in playing turns.
func New(turns ...Turn) *Server {
	return &Server{turns: turns, created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()}
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

// ServeHTTP answers POST /v1/chat/completions and /chat/completions.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/v1/chat/completions" && req.URL.Path != "/chat/completions" {
		writeError(w, http.StatusNotFound, "not_found_error", "no route "+req.URL.Path, "")
		return
	}
	if req.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "use POST", "")
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "reading the body: "+err.Error(), "")
		return
	}
	r, err := DecodeRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error(), "")
		return
	}
	status, t, n := s.take(r)
	if status != 0 {
		if t.Fault.RetryAfter != "" && (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) {
			w.Header().Set("Retry-After", t.Fault.RetryAfter)
		}
		writeError(w, status, errorType(status), "scripted fault: HTTP "+strconv.Itoa(status), "")
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
	if r.Stream {
		a.stream(w, r.IncludeUsage)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(a.completion())
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
