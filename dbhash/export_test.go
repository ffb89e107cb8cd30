package dbhash

// Unexported names the external tests reach.
const MaxDepth = maxDepth

func (c *Cache) Verify() error { return c.verify() }

// Modified is the change of a table in both DBs (nil when it is equal).
func (d Diff) Modified(table string) *change { return d.tablesModified[table] }
