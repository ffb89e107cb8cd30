package dbhash

// Option configures hashing and normalisation.
type Option func(*config)

type config struct {
	excluded map[string]bool
	oil      map[string]bool
	cache    *Cache
}

var (
	// The Python original's defaults: the top-level keys left out of the
	// hash, and the field names whose list values are compared and hashed
	// without regard to order.
	defaultExcluded = set([]string{"session"})
	defaultOIL      = set([]string{"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries"})
	defaultConfig   = newConfig(nil)
)

// newConfig applies opts to the defaults. Options replace a set, never
// change one, so every config can start from the same default sets.
func newConfig(opts []Option) *config {
	c := &config{excluded: defaultExcluded, oil: defaultOIL}
	for _, o := range opts {
		o(c)
	}
	return c
}

func configFor(opts []Option) *config {
	if len(opts) == 0 {
		return defaultConfig
	}
	return newConfig(opts)
}

// WithExcludedKeys replaces the set of top-level keys left out of the hash
// (default: "session", as in the Python original). Keys are only dropped from a top-level
// object, never from nested ones.
func WithExcludedKeys(keys ...string) Option {
	return func(c *config) { c.excluded = set(keys) }
}

// WithOrderIndependentFields replaces the set of field names whose list
// values are sorted before hashing and diffing (default, as in the Python
// original: standby_list, notifications, bookings, system_accounts,
// group_memberships, asset_recoveries).
func WithOrderIndependentFields(fields ...string) Option {
	return func(c *config) { c.oil = set(fields) }
}

func set(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
