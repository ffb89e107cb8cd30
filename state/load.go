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
	db, _, err := loadDBDir(root, rel, false)
	return db, err
}

// loadDBDir is LoadDB; with printed, it also returns the fingerprints of
// the tables (see loadDB).
func loadDBDir(root, rel string, printed bool) (map[string]any, map[string]uint64, error) {
	r, file, dir, err := openDB(root, rel)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return loadDB(r.FS(), file, dir, rootWrap(root), printed)
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
	db, _, err := loadDBFS(fsys, rel, false)
	return db, err
}

// loadDBFS is LoadDBFS; with printed, it also returns the fingerprints
// of the tables (see loadDB).
func loadDBFS(fsys fs.FS, rel string, printed bool) (map[string]any, map[string]uint64, error) {
	rel = strings.TrimSuffix(rel, ".json")
	file, dir := dbNames(rel)
	if !fs.ValidPath(dir) || file != "" && !fs.ValidPath(file) {
		return nil, nil, fmt.Errorf("state: load DB %q: %w", rel, ErrPathEscape)
	}
	return loadDB(fsys, file, dir, func(name string, err error) error {
		return fmt.Errorf("state: load DB %q: %w", name, err)
	}, printed)
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
// into the error reported. With printed, it also returns the fingerprint
// of each table, computed as the files are decoded, or nil prints when
// they could not be had that way.
func loadDB(fsys fs.FS, file, rel string, wrap func(name string, err error) error, printed bool) (map[string]any, map[string]uint64, error) {
	if file != "" {
		info, err := fs.Stat(fsys, file)
		if err == nil && info.Mode().IsRegular() {
			v, p, err := readJSON(fsys, file, wrap, printed)
			if err != nil {
				return nil, nil, err
			}
			db, ok := v.(map[string]any)
			if !ok {
				return nil, nil, fmt.Errorf("state: load DB %q: top level is %s, not an object: %w", file, jsonKind(v), ErrInvalidDB)
			}
			if p == nil {
				return db, nil, nil
			}
			return db, p.Members, nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, wrap(file, err)
		}
	}

	info, err := fs.Stat(fsys, rel)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !info.IsDir()) {
		return nil, nil, fmt.Errorf("state: load DB: no DB at %s or %s/ (tried single-file and sharded forms): %w", file, rel, ErrDBNotFound)
	}
	if err != nil {
		return nil, nil, wrap(rel, err)
	}
	return loadShards(fsys, rel, wrap, printed)
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
func loadShards(fsys fs.FS, dir string, wrap func(name string, err error) error, printed bool) (map[string]any, map[string]uint64, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil, wrap(dir, err)
	}
	type shard struct {
		name, path string
		size       int64
		val        any
		prints     *pyjson.Prints
		err        error
	}
	files, err := shardFiles(fsys, dir, entries)
	if err != nil {
		return nil, nil, wrap(files[len(files)-1].path, err)
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
				sh.val, sh.prints, sh.err = readJSON(fsys, sh.path, wrap, printed)
			}
		})
	}
	wg.Wait()
	db := make(map[string]any, len(shards))
	var prints map[string]uint64
	if printed {
		prints = make(map[string]uint64, len(shards))
	}
	for _, sh := range shards {
		if sh.err != nil {
			return nil, nil, sh.err
		}
		db[sh.name] = sh.val
		if sh.prints == nil {
			prints = nil // some shard has none: fingerprint the DB instead
		} else if prints != nil {
			prints[sh.name] = sh.prints.Root
		}
	}
	return db, prints, nil
}

// readJSON parses one JSON document with exact numbers; with printed,
// it fingerprints it as it goes (nil prints when that cannot be done).
func readJSON(fsys fs.FS, name string, wrap func(name string, err error) error, printed bool) (any, *pyjson.Prints, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, nil, wrap(name, err)
	}
	var v any
	var prints *pyjson.Prints
	if printed {
		v, prints, err = pyjson.DecodePrinted(data)
	} else {
		v, err = pyjson.Decode(data)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("state: load DB %q: %w: %w", name, ErrInvalidDB, err)
	}
	return v, prints, nil
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
