package dbhash

// Unexported names the external tests reach.
const MaxDepth = maxDepth

// Cache is the table cache package state uses (internal/hashcache).
type Cache = tableCache

// NewCache builds the cache of db with the default options.
func NewCache(db map[string]any) (*Cache, error) { return Options{}.newCache(db) }

// Hash is [Hash] reusing c's text (a nil c: none).
func (c *Cache) Hash(v any) (string, error) { return Options{}.hash(v, c) }

// HashWith is [Options.Hash] with o, reusing c's text.
func (c *Cache) HashWith(o Options, v any) (string, error) { return o.hash(v, c) }

func (c *Cache) Verify() error { return c.verify() }

// Modified is the change of a table in both DBs (nil when it is equal).
func (d Diff) Modified(table string) *change { return d.tablesModified[table] }

// Options configures hashing (the zero value is the Python original's
// behaviour).
type Options = options

// Hash is [Hash] with the options o.
func (o options) Hash(v any) (string, error) { return o.hash(v, nil) }

// HashJSON decodes data as Python's json.loads would and hashes it.
func HashJSON(data []byte) (string, error) {
	v, err := Decode(data)
	if err != nil {
		return "", err
	}
	return Hash(v)
}

// Normalize is the normalised copy of v the hash is computed over.
func Normalize(v any) any { return normalize(v, defaultConfig, 0) }
