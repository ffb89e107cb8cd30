package state

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// LoadDB loads a DB that lives under the data root root. rel names it
// relative to root, with or without a ".json" suffix:
//
//   - if "<rel>.json" is a file, it is parsed and must hold a JSON object;
//   - otherwise, if "<rel>" is a directory, the result is an object whose
//     keys are the stems of the directory's top-level "*.json" files (read
//     in sorted file-name order, no recursion) and whose values are their
//     parsed contents — the tau2 airline layout (db/flights.json,
//     db/reservations.json, db/users.json);
//   - otherwise the error wraps [ErrDBNotFound].
//
// Both layouts of the same data produce equal maps. An empty rel loads the
// root directory itself as a sharded DB.
//
// A rel that is absolute, climbs out of root with "..", or reaches outside
// root through a symbolic link is refused with an error wrapping
// [ErrPathEscape]; nothing outside root is opened. Malformed JSON, trailing
// data and a non-object single-file DB wrap [ErrInvalidDB].
//
// Files are parsed as Python's json.loads parses them: numbers decode as
// [encoding/json.Number], so large integers stay exact and "1.0" stays
// distinct from "1"; NaN, Infinity and -Infinity become float64 values;
// escaped lone surrogates are kept (as WTF-8). So a loaded DB hashes exactly
// as the Python original hashes the same file.
//
// Unlike the Python loader, which replaces the last suffix of the path, only
// a literal ".json" suffix is stripped: "db.v1" names "db.v1.json".
func LoadDB(root, rel string) (map[string]any, error) {
	l, err := loadDBDir(root, rel, false)
	return l.db, err
}

// loadDBDir is LoadDB; for a Source, it also returns the fingerprints of
// the tables and the key order (see loadDB).
func loadDBDir(root, rel string, source bool) (loaded, error) {
	r, file, dir, err := openDB(root, rel)
	if err != nil {
		return loaded{}, err
	}
	defer r.Close()
	return loadDB(r.FS(), file, dir, rootWrap(root), source)
}

// openDB applies LoadDB's path rules to rel and opens root: it returns
// the opened root (the caller closes it) and the two names the DB may
// have under it (see dbNames), or the error LoadDB reports.
func openDB(root, rel string) (r *os.Root, file, dir string, err error) {
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".json")
	if rel == "" {
		rel = "."
	}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, "", "", fmt.Errorf("state: load DB %q: %w", rel, ErrPathEscape)
	}
	r, err = os.OpenRoot(root)
	if err != nil {
		return nil, "", "", fmt.Errorf("state: open data root: %w", err)
	}
	file, dir = dbNames(rel)
	return r, file, dir, nil
}

// rootWrap is the wrap of loadDB for a DB under the directory root.
func rootWrap(root string) func(name string, err error) error {
	return func(name string, err error) error { return classify(root, name, err) }
}

// LoadDBFS loads a DB from the file system fsys, as [LoadDB] loads it from
// a directory: rel (a slash-separated path, with or without ".json") names
// a single-file DB or a directory of shards, with the same rules, the same
// result and the same errors. An rel that is not a valid [fs.ValidPath]
// once cleaned — absolute, or climbing out with ".." — is refused with an
// error wrapping [ErrPathEscape]; fsys itself decides what its names reach.
//
// It serves data that is not a directory on disk, such as files embedded
// with go:embed.
func LoadDBFS(fsys fs.FS, rel string) (map[string]any, error) {
	l, err := loadDBFS(fsys, rel, false)
	return l.db, err
}

// loadDBFS is LoadDBFS; for a Source, it also returns the fingerprints
// of the tables and the key order (see loadDB).
func loadDBFS(fsys fs.FS, rel string, source bool) (loaded, error) {
	rel = strings.TrimSuffix(rel, ".json")
	file, dir := dbNames(rel)
	if !fs.ValidPath(dir) || file != "" && !fs.ValidPath(file) {
		return loaded{}, fmt.Errorf("state: load DB %q: %w", rel, ErrPathEscape)
	}
	return loadDB(fsys, file, dir, func(name string, err error) error {
		return fmt.Errorf("state: load DB %q: %w", name, err)
	}, source)
}

// dbNames returns the two names a DB may have: the single file (rel plus
// ".json", so "db/" names "db/.json", not "db.json": a trailing slash asks
// for the directory) and the directory of shards, both cleaned. An empty
// or "." rel is the root, which has no single-file form: file is "".
func dbNames(rel string) (file, dir string) {
	if rel == "" || path.Clean(rel) == "." {
		return "", "."
	}
	return path.Clean(rel + ".json"), path.Clean(rel)
}

// loadDB is LoadDB and LoadDBFS after their path checks: file and dir are
// valid fs paths (file is "" for the root); wrap turns an fs error on name
// into the error reported. For a Source, it also returns the fingerprint
// of each table, computed as the files are decoded (nil prints when they
// could not be had that way), and the key order of the DB's objects.
func loadDB(fsys fs.FS, file, rel string, wrap func(name string, err error) error, source bool) (loaded, error) {
	if file != "" {
		info, err := fs.Stat(fsys, file)
		if err == nil && info.Mode().IsRegular() {
			d, err := readJSON(fsys, file, wrap, source)
			if err != nil {
				return loaded{}, err
			}
			db, ok := d.val.(map[string]any)
			if !ok {
				return loaded{}, fmt.Errorf("state: load DB %q: top level is %s, not an object: %w", file, jsonKind(d.val), ErrInvalidDB)
			}
			l := loaded{db: db}
			if d.prints != nil {
				l.prints = d.prints.Members
			}
			if d.orders != nil {
				l.order = newKeyOrder(d.orders)
			}
			return l, nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return loaded{}, wrap(file, err)
		}
	}

	info, err := fs.Stat(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !info.IsDir()) {
		return loaded{}, fmt.Errorf("state: load DB: no DB at %s or %s/ (tried single-file and sharded forms): %w", file, rel, ErrDBNotFound)
	}
	if err != nil {
		return loaded{}, wrap(rel, err)
	}
	return loadShards(fsys, rel, wrap, source)
}

// shardFile is one file of a sharded DB: the table it holds, its path and
// what fs.Stat said of it.
type shardFile struct {
	table, path string
	info        fs.FileInfo
}

// shardFiles picks the shards among dir's entries: the regular *.json
// files, in entry order. On a Stat error, the last element names the file
// it failed on.
func shardFiles(fsys fs.FS, dir string, entries []fs.DirEntry) ([]shardFile, error) {
	var out []shardFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || e.IsDir() {
			continue
		}
		p := path.Join(dir, name)
		info, err := fs.Stat(fsys, p)
		if err != nil {
			return append(out, shardFile{path: p}), err
		}
		if info.Mode().IsRegular() {
			out = append(out, shardFile{table: strings.TrimSuffix(name, ".json"), path: p, info: info})
		}
	}
	return out, nil
}

// loadShards reads every top-level *.json file of dir into one object, in
// file-name order (fs.ReadDir sorts). The files are parsed side by side,
// on all cores; an error is the one of the first failing file.
func loadShards(fsys fs.FS, dir string, wrap func(name string, err error) error, source bool) (loaded, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return loaded{}, wrap(dir, err)
	}
	type shard struct {
		name, path string
		size       int64
		decoded
		err error
	}
	files, err := shardFiles(fsys, dir, entries)
	if err != nil {
		return loaded{}, wrap(files[len(files)-1].path, err)
	}
	shards := make([]*shard, len(files))
	for i, f := range files {
		shards[i] = &shard{name: f.table, path: f.path, size: f.info.Size()}
	}
	// Largest first, so that a big shard does not start last.
	order := slices.Clone(shards)
	slices.SortStableFunc(order, func(a, b *shard) int { return cmp.Compare(b.size, a.size) })
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(order)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(order); i = int(next.Add(1) - 1) {
				sh := order[i]
				sh.decoded, sh.err = readJSON(fsys, sh.path, wrap, source)
			}
		})
	}
	wg.Wait()
	db := make(map[string]any, len(shards))
	var prints map[string]uint64
	var tables []string
	var orders map[string]*pyjson.KeyOrders
	if source {
		prints = make(map[string]uint64, len(shards))
		orders = make(map[string]*pyjson.KeyOrders, len(shards))
	}
	for _, sh := range shards {
		if sh.err != nil {
			return loaded{}, sh.err
		}
		if _, again := db[sh.name]; !again {
			tables = append(tables, sh.name)
		}
		db[sh.name] = sh.val
		if sh.prints == nil {
			prints = nil // some shard has none: fingerprint the DB instead
		} else if prints != nil {
			prints[sh.name] = sh.prints.Root
		}
		if orders != nil {
			orders[sh.name] = sh.orders
		}
	}
	l := loaded{db: db, prints: prints}
	if source {
		l.order = mergeKeyOrders(tables, db, orders)
	}
	return l, nil
}

// decoded is one JSON document decoded: its value and, for a Source, its
// fingerprints (nil when they could not be had) and key orders.
type decoded struct {
	val    any
	prints *pyjson.Prints
	orders *pyjson.KeyOrders
}

// readJSON parses one JSON document with exact numbers; for a Source, it
// fingerprints it and notes its key orders as it goes.
func readJSON(fsys fs.FS, name string, wrap func(name string, err error) error, source bool) (decoded, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return decoded{}, wrap(name, err)
	}
	var d decoded
	if source {
		d.val, d.prints, d.orders, err = pyjson.DecodeOrdered(data, true)
	} else {
		d.val, err = pyjson.Decode(data)
	}
	if err != nil {
		return decoded{}, fmt.Errorf("state: load DB %q: %w: %w", name, ErrInvalidDB, err)
	}
	return d, nil
}

// classify turns an os.Root error into ErrPathEscape when the name resolves
// outside root (os.Root reports that with an unexported error value).
func classify(root, name string, err error) error {
	if escapes(root, name) {
		return fmt.Errorf("state: load DB %q: %w", name, ErrPathEscape)
	}
	return fmt.Errorf("state: load DB %q: %w", name, err)
}

// escapes reports whether name, resolved through symbolic links (also
// dangling ones, and chains of them), lies outside root.
func escapes(root, name string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	p := filepath.Join(realRoot, filepath.FromSlash(name))
	for range 40 { // the usual limit on link chains
		if target, err := filepath.EvalSymlinks(p); err == nil {
			return outside(realRoot, target)
		}
		// Resolve the parent, then follow the last element by hand: it is
		// a dangling link (or missing).
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return outside(realRoot, p)
		}
		p = filepath.Join(dir, filepath.Base(p))
		dest, err := os.Readlink(p)
		if err != nil {
			return outside(realRoot, p)
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(dir, dest)
		}
		p = dest
	}
	return true // a link loop: treat as unsafe
}

func outside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err != nil || rel != "." && !filepath.IsLocal(rel)
}

// jsonKind names the JSON type of a decoded value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}
