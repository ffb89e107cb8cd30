package state

// An Action is one record of the action log: a JSON object written by a
// write tool. Records written by this library's tools have the keys
// "action_type", "name", "arguments" and "result" (read them as a map's:
// a["action_type"]); gold replay and the harness add "side". Other keys
// are kept as they are.
type Action map[string]any

// NewAction returns the record a write tool appends:
// {"action_type", "name", "arguments", "result"}, where name equals
// actionType as in the Python original.
func NewAction(actionType string, arguments map[string]any, result any) Action {
	if arguments == nil {
		arguments = map[string]any{}
	}
	return Action{
		"action_type": actionType,
		"name":        actionType,
		"arguments":   arguments,
		"result":      result,
	}
}

// AppendAction appends a deep copy of a to the action log.
func (s *Shared) AppendAction(a Action) {
	c := Action(cloneMap(a))
	if c == nil {
		c = Action{}
	}
	s.mu.Lock()
	s.actions = append(s.actions, c)
	s.mu.Unlock()
}

// Actions returns a deep copy of the action log in append order; it is
// never nil.
func (s *Shared) Actions() []Action {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Action, len(s.actions))
	for i, a := range s.actions {
		out[i] = Action(cloneMap(a))
	}
	return out
}
