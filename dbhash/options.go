package dbhash

// Options configures hashing: the zero value is the Python original's
// behaviour. [Hash], [HashJSON], [Canonical], [Normalize] and [Compare]
// use the zero value; [Options.Hash] and [Options.NewCache] take others.
type Options struct {
	// ExcludedKeys are the top-level keys left out of the hash. Nil means
	// the default, "session", as in the Python original; an empty non-nil
	// slice excludes none. Keys are only dropped from a top-level object,
	// never from nested ones.
	ExcludedKeys []string
	// OrderIndependentFields are the field names whose list values are
	// sorted before hashing and diffing. Nil means the default, as in the
	// Python original: standby_list, notifications, bookings,
	// system_accounts, group_memberships, asset_recoveries; an empty
	// non-nil slice names none.
	OrderIndependentFields []string
	// Cache, if not nil, makes [Options.Hash] reuse the cache's text for
	// every table of the hashed DB that is the very map the cache was
	// built from. It must have been built ([Options.NewCache]) with the
	// same ExcludedKeys and OrderIndependentFields as the hash; the hash
	// fails otherwise.
	Cache *Cache
}

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
	defaultConfig   = newConfig(Options{})
)

// newConfig applies o to the defaults. A set given replaces the default,
// never changes it, so every config can start from the same default sets.
func newConfig(o Options) *config {
	c := &config{excluded: defaultExcluded, oil: defaultOIL, cache: o.Cache}
	if o.ExcludedKeys != nil {
		c.excluded = set(o.ExcludedKeys)
	}
	if o.OrderIndependentFields != nil {
		c.oil = set(o.OrderIndependentFields)
	}
	return c
}

func (o Options) config() *config {
	if o.ExcludedKeys == nil && o.OrderIndependentFields == nil && o.Cache == nil {
		return defaultConfig
	}
	return newConfig(o)
}

func set(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
