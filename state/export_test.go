package state

// NewWriter is a Writer that keeps no order, as (*Order)(nil).Writer
// makes one.
func NewWriter(db map[string]any, tables ...string) *Writer {
	return (*Order)(nil).Writer(db, tables...)
}

// NewSourceFunc is a Source of the DB load returns, owned without a copy
// (as LoadSource owns the DB it decodes): load must return a new DB on
// every call; it is called again only when Source.Verify finds the DB
// changed.
func NewSourceFunc(load func() (map[string]any, error)) (*Source, error) {
	return loadSource(func() (loaded, error) {
		db, err := load()
		return loaded{db: db}, err
	})
}
