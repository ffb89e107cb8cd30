package state

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
)

// SourceCache hands out one [Source] per DB file, so that many states —
// the dispatchers of many bots, each scenario of each — share one decoded
// DB copy-on-write ([Shared.Share]) instead of decoding it for every
// scenario. The zero value is an empty cache, ready to use; a SourceCache
// is safe for concurrent use and must not be copied after first use.
//
// It keeps every Source it loaded for as long as it lives (one per path
// whose files are unchanged); a DB whose files changed is loaded again,
// and states already sharing the old Source keep it.
type SourceCache struct {
	mu      sync.Mutex
	entries map[string]*cachedSource
}

// cachedSource is one cached DB: the stamp of its files when it was
// loaded, and the Source, once ready is closed (or why it failed).
type cachedSource struct {
	stamp string
	ready chan struct{}
	src   *Source
	err   error
}

// Load returns the Source of the DB [LoadDB] loads from root and rel, as
// [LoadSource] does, with the same path rules and the same errors —
// but one Source per DB: a later Load that resolves to the same file (or
// directory of shards) under the same root, while its files are
// unchanged, returns the Source loaded first. Unchanged means the same
// size and modification time of the single file, or of the directory and
// each of its shards (a file rewritten within the file system's time
// resolution, at the same size, goes unnoticed); a changed DB is decoded
// again. Concurrent Loads of one DB decode it once.
//
// Every Load that reuses a Source first calls [Source.Verify] on it: a
// tool that broke the copy-on-write rules while a state shared it (wrote
// under [Shared.View], or outside the tables it named) has changed it,
// and Verify puts the original back. Load then returns the restored
// Source together with Verify's error, which wraps [ErrSourceChanged]:
// the Source is fit to use, and what was computed on a state that shared
// it before (a scenario's DB hash) may be wrong — log it, or fail that
// scenario. Any other error comes with a nil Source.
func (c *SourceCache) Load(root, rel string) (*Source, error) {
	key, stamp, ok := stampDB(root, rel)
	if !ok {
		// The path is refused or the DB is missing: LoadSource reports
		// it as LoadDB does (or loads a DB that just appeared, uncached).
		return LoadSource(root, rel)
	}
	c.mu.Lock()
	if e := c.entries[key]; e != nil && e.stamp == stamp {
		c.mu.Unlock()
		<-e.ready
		if e.err != nil {
			return nil, e.err
		}
		if err := e.src.Verify(); err != nil {
			return e.src, err
		}
		return e.src, nil
	}
	e := &cachedSource{stamp: stamp, ready: make(chan struct{})}
	if c.entries == nil {
		c.entries = map[string]*cachedSource{}
	}
	c.entries[key] = e
	c.mu.Unlock()

	e.src, e.err = LoadSource(root, rel)
	if e.err != nil {
		c.mu.Lock()
		if c.entries[key] == e { // the next Load tries again
			delete(c.entries, key)
		}
		c.mu.Unlock()
	}
	close(e.ready)
	return e.src, e.err
}

// stampDB resolves rel under root as LoadDB does and returns the DB's
// key (the absolute root and the name of the file or directory LoadDB
// would read) and the stamp of its files: the size and modification time
// of the file, or of the directory and every shard LoadDB would read. ok
// is false when LoadDB would fail before decoding anything (a refused
// path, no DB, a file that cannot be read): the caller lets LoadDB say
// why.
func stampDB(root, rel string) (key, stamp string, ok bool) {
	r, file, dir, err := openDB(root, rel)
	if err != nil {
		return "", "", false
	}
	defer r.Close()
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", "", false
	}
	fsys := r.FS()
	var b strings.Builder
	stampOf := func(name string, info fs.FileInfo) {
		fmt.Fprintf(&b, "%q %d %d %v\n", name, info.Size(), info.ModTime().UnixNano(), info.Mode())
	}
	if file != "" {
		info, err := fs.Stat(fsys, file)
		if err == nil && info.Mode().IsRegular() {
			stampOf(file, info)
			return abs + "\x00file\x00" + file, b.String(), true
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", "", false
		}
	}
	info, err := fs.Stat(fsys, dir)
	if err != nil || !info.IsDir() {
		return "", "", false
	}
	stampOf(dir, info)
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return "", "", false
	}
	files, err := shardFiles(fsys, dir, entries) // as loadShards picks them
	if err != nil {
		return "", "", false
	}
	for _, f := range files {
		stampOf(f.path, f.info)
	}
	return abs + "\x00dir\x00" + dir, b.String(), true
}
