package dbhash

// Unexported names the external tests reach.
const MaxDepth = maxDepth

func (c *Cache) Verify() error { return c.verify() }
