package main

import "sync"

// memo holds results that several tests compute alike (the gold replays
// of a domain), by key: each is computed once, however many tests ask
// for it at once, and is read-only to them.
type memo[V any] struct {
	mu sync.Mutex
	m  map[string]func() (V, error)
}

// get returns key's result, computing it with f the first time.
func (c *memo[V]) get(key string, f func() (V, error)) (V, error) {
	c.mu.Lock()
	g, ok := c.m[key]
	if !ok {
		if c.m == nil {
			c.m = map[string]func() (V, error){}
		}
		g = sync.OnceValues(f)
		c.m[key] = g
	}
	c.mu.Unlock()
	return g()
}
