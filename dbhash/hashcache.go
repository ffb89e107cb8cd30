package dbhash

import "github.com/voiceeval/schematools/internal/hashcache"

// The table cache, for package state (see internal/hashcache).
func init() {
	hashcache.New = func(db map[string]any) (any, error) {
		c, err := options{}.newCache(db)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	hashcache.Hash = func(cache any, db map[string]any) (string, error) {
		c, _ := cache.(*tableCache)
		return options{}.hash(db, c)
	}
}
