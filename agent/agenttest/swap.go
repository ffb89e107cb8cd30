package agenttest

import (
	"net/http"
	"sync"
)

// Swap serves one stand-in at a time: the [Server] of the scenario in
// progress, set before it runs, behind one URL that stays the same (a
// bot started once answers scenario after scenario). Before the first
// Set it answers 503 "no script set". Safe for concurrent use; the zero
// value is ready.
type Swap struct {
	mu  sync.Mutex
	srv *Server
}

// Set makes a new Server playing turns the one served, and returns it.
func (s *Swap) Set(turns ...Turn) *Server {
	srv := New(turns...)
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	return srv
}

// ServeHTTP hands the request to the Server set last.
func (s *Swap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	if srv == nil {
		http.Error(w, "no script set", http.StatusServiceUnavailable)
		return
	}
	srv.ServeHTTP(w, r)
}
