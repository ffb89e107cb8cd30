// Package deltas puts a Chat Completions stream's tool-call deltas
// together, whatever a server does with their index and id. It does not
// import the SDK, so that its fuzz target runs at full speed.
package deltas

import "github.com/voiceeval/schematools/tool"

// Accumulator puts a stream's tool-call deltas together. The zero value
// is ready.
type Accumulator struct {
	calls  []tool.ModelCall
	latest map[int64]int // index → position of the last call opened there
}

// Add takes one delta. An id continues the call open at the delta's
// index when that call has the id (servers that repeat the id in every
// fragment), and otherwise opens a call — even at an index in use
// (servers that number every call 0) and even for an id already used at
// another index (a model repeating an id: two calls, which the loop
// answers apart). A delta without an id continues the last call opened at
// its index (without an index: the last call), or opens one. A name
// equal to the call's is a repetition, another is appended (a name sent
// in pieces); arguments are appended.
func (a *Accumulator) Add(index int64, hasIndex bool, id, name, args string) {
	if a.latest == nil {
		a.latest = map[int64]int{}
	}
	pos := -1
	switch {
	case id != "":
		if hasIndex {
			if p, ok := a.latest[index]; ok && a.calls[p].ID == id {
				pos = p
			}
		} else if n := len(a.calls); n > 0 && a.calls[n-1].ID == id {
			pos = n - 1
		}
	case hasIndex:
		if p, ok := a.latest[index]; ok {
			pos = p
		}
	case len(a.calls) > 0:
		pos = len(a.calls) - 1
	}
	if pos < 0 {
		pos = len(a.calls)
		a.calls = append(a.calls, tool.ModelCall{ID: id})
	}
	if hasIndex {
		a.latest[index] = pos
	}
	c := &a.calls[pos]
	if name != "" && name != c.Name {
		c.Name += name
	}
	c.Arguments += args
}

// Calls returns the calls so far, in the order they were opened.
func (a *Accumulator) Calls() []tool.ModelCall { return a.calls }
