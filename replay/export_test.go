package replay

// Side reaches the unexported side for the external tests.
func (a Action) Side() string { return a.side() }
