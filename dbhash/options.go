package dbhash

// options configures hashing: the zero value is the Python original's
// behaviour, which [Hash], [Canonical] and [Compare] use; the tests try
// others.
type options struct {
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
}

type config struct {
	excluded map[string]bool
	oil      map[string]bool
	cache    *tableCache
}

var (
	// The Python original's defaults: the top-level keys left out of the
	// hash, and the field names whose list values are compared and hashed
	// without regard to order.
	defaultExcluded = set([]string{"session"})
	defaultOIL      = set([]string{"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries"})
	defaultConfig   = newConfig(options{}, nil)
)

// newConfig applies o to the defaults. A set given replaces the default,
// never changes it, so every config can start from the same default sets.
func newConfig(o options, cache *tableCache) *config {
	c := &config{excluded: defaultExcluded, oil: defaultOIL, cache: cache}
	if o.ExcludedKeys != nil {
		c.excluded = set(o.ExcludedKeys)
	}
	if o.OrderIndependentFields != nil {
		c.oil = set(o.OrderIndependentFields)
	}
	return c
}

// config is o's config, hashing with cache (nil: none).
func (o options) config(cache *tableCache) *config {
	if o.ExcludedKeys == nil && o.OrderIndependentFields == nil && cache == nil {
		return defaultConfig
	}
	return newConfig(o, cache)
}

func set(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
