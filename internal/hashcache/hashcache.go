// Package hashcache hands package state dbhash's table cache, which
// dbhash does not export: a state.Source builds one for the DB its states
// share, and hashes their DBs with it (the bytes hashed are those of a
// plain dbhash.Hash). Package dbhash sets both functions when it is
// initialised; state imports dbhash, so they are set before it runs.
package hashcache

var (
	// New builds the cache of db's tables, with dbhash's default options.
	// The cache is nil when err is not.
	New func(db map[string]any) (cache any, err error)
	// Hash is dbhash.Hash of db, reusing the text cache (from New; nil:
	// none) holds for the tables and records of db that are the very maps
	// it was built from.
	Hash func(cache any, db map[string]any) (string, error)
)
