package dbhash

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"sync"

	"github.com/voiceeval/schematools/internal/pyjson"
)

var canonPool = sync.Pool{New: func() any { return &canon{buf: make([]byte, 0, flushAt+4096)} }}

// Hash returns the hex SHA-256 of v's canonical text ([Canonical]), the
// value the Python original's get_dict_hash returns for the same data.
//
// Large objects are encoded on several goroutines (GOMAXPROCS) and hashed
// in order; the result is the same as hashing [Canonical]'s bytes.
func Hash(v any) (string, error) { return options{}.hash(v, nil) }

// hash is Hash, reusing cache's text (nil: none) for the tables of v
// that are the very maps the cache was built from.
func (o options) hash(v any, cache *tableCache) (string, error) {
	cfg := o.config(cache)
	h := sha256.New()
	if m, ok := v.(map[string]any); ok && cfg.cache != nil {
		if err := hashCached(h, m, cfg); err != nil {
			return "", err
		}
		return sum(h), nil
	}
	if m, ok := v.(map[string]any); ok {
		if w := parallelWorkers(); w > 1 {
			if segs := planSegments(m, cfg, w); segs != nil {
				if err := hashSegments(h, segs, cfg, w); err != nil {
					return "", err
				}
				return sum(h), nil
			}
		}
	}
	c := canonPool.Get().(*canon)
	defer canonPool.Put(c)
	c.cfg, c.style, c.h, c.buf = cfg, pyjson.Compact, h, c.buf[:0]
	if err := c.top(v); err != nil {
		return "", err
	}
	h.Write(c.buf)
	return sum(h), nil
}

func sum(h hash.Hash) string {
	var b [sha256.Size]byte
	return hex.EncodeToString(h.Sum(b[:0]))
}

// Canonical returns the exact bytes [Hash] hashes: the normalised value,
// excluded top-level keys dropped, as compact, key-sorted, ASCII-only JSON.
func Canonical(v any) ([]byte, error) {
	c := canon{cfg: defaultConfig, style: pyjson.Compact}
	if err := c.top(v); err != nil {
		return nil, err
	}
	return c.buf, nil
}

// Decode parses data as Python's json.loads does, keeping numbers exact
// and accepting NaN, Infinity and -Infinity; see the package
// documentation for how each Python value is represented.
//
// Errors wrap [ErrInvalidJSON], and also [ErrTooDeep] for input nested
// deeper than 10,000 levels.
func Decode(data []byte) (any, error) {
	v, err := pyjson.Decode(data)
	switch {
	case errors.Is(err, pyjson.ErrDepth):
		return nil, fmt.Errorf("%w: %w: %w", ErrInvalidJSON, ErrTooDeep, err)
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	return v, nil
}
