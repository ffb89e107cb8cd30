package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/internal/pyjson"
)

// The compact form (nemodata/scenarios/) keeps each distinct text once:
//
//   - lines.jsonl: one JSON string per line, the pool of distinct text
//     lines (each with its trailing "\n" where the text had one);
//   - texts.jsonl: one JSON string per line, a distinct long text as the
//     line ids it is made of, runs written "a-b" ("0-12,40,13-20");
//   - scenarios.jsonl: the records, sorted by name as NeMo's file is, each
//     string of at least minPooled bytes replaced by {"$text": id}, and
//     eva_airline's inline agent DB by {"$eva_fixture": "eva_airline/<id>.json"},
//     the fixture nemodata already ships.
//
// Decoding replaces the markers and json.dumps(record, sort_keys=True)
// (pyjson.Default) gives NeMo's line back, byte for byte.
const (
	markText    = "$text"
	markFixture = "$eva_fixture"
	minPooled   = 100
)

// store is the decoded compact form.
type store struct {
	lines []string
	texts []string
	fsys  fs.FS // nemodata.FS, for the eva fixtures
}

func readJSONLines(fsys fs.FS, name string) ([][]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	if len(data) == 0 {
		return nil, nil
	}
	return bytes.Split(data, []byte("\n")), nil
}

func readStrings(fsys fs.FS, name string) ([]string, error) {
	raw, err := readJSONLines(fsys, name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(raw))
	for i, b := range raw {
		v, err := pyjson.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a JSON string", name, i+1)
		}
		out[i] = s
	}
	return out, nil
}

// text rebuilds pooled text id.
func (s *store) text(id int) (string, error) {
	if id < 0 || id >= len(s.texts) {
		return "", fmt.Errorf("text id %d out of range (%d texts)", id, len(s.texts))
	}
	var b strings.Builder
	for run := range strings.SplitSeq(s.texts[id], ",") {
		lo, hi, err := parseRun(run)
		if err != nil {
			return "", fmt.Errorf("text %d: %w", id, err)
		}
		if lo < 0 || hi >= len(s.lines) || lo > hi {
			return "", fmt.Errorf("text %d: line run %q out of range (%d lines)", id, run, len(s.lines))
		}
		for _, l := range s.lines[lo : hi+1] {
			b.WriteString(l)
		}
	}
	return b.String(), nil
}

func parseRun(run string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(run, "-")
	if lo, err = strconv.Atoi(a); err != nil {
		return 0, 0, fmt.Errorf("bad line run %q", run)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("bad line run %q", run)
		}
	}
	return lo, hi, nil
}

// expand replaces the markers in a decoded compact record.
func (s *store) expand(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			if id, ok := x[markText]; ok {
				n, err := markerInt(id)
				if err != nil {
					return nil, err
				}
				return s.text(n)
			}
			if p, ok := x[markFixture].(string); ok {
				data, err := fs.ReadFile(s.fsys, p)
				if err != nil {
					return nil, fmt.Errorf("eva fixture: %w", err)
				}
				return pyjson.Decode(data)
			}
		}
		for k, e := range x {
			w, err := s.expand(e)
			if err != nil {
				return nil, err
			}
			x[k] = w
		}
		return x, nil
	case []any:
		for i, e := range x {
			w, err := s.expand(e)
			if err != nil {
				return nil, err
			}
			x[i] = w
		}
		return x, nil
	}
	return v, nil
}

func markerInt(v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("$text marker without an integer id")
	}
	return strconv.Atoi(string(n))
}

// compactor builds the compact form from NeMo's records (see Regenerate).
type compactor struct {
	lineID map[string]int
	lines  []string
	textID map[string]int
	texts  []string
}

func newCompactor() *compactor {
	return &compactor{lineID: map[string]int{}, textID: map[string]int{}}
}

// splitLines cuts s after each "\n"; the pieces concatenate to s.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func (c *compactor) pool(s string) int {
	var ids []int
	for _, l := range splitLines(s) {
		id, ok := c.lineID[l]
		if !ok {
			id = len(c.lines)
			c.lineID[l] = id
			c.lines = append(c.lines, l)
		}
		ids = append(ids, id)
	}
	var runs []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if i == j {
			runs = append(runs, strconv.Itoa(ids[i]))
		} else {
			runs = append(runs, strconv.Itoa(ids[i])+"-"+strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	enc := strings.Join(runs, ",")
	id, ok := c.textID[enc]
	if !ok {
		id = len(c.texts)
		c.textID[enc] = id
		c.texts = append(c.texts, enc)
	}
	return id
}

// compact rewrites v, pooling long strings in key order (deterministic).
func (c *compactor) compact(v any) (any, error) {
	switch x := v.(type) {
	case string:
		if len(x) < minPooled {
			return x, nil
		}
		return map[string]any{markText: c.pool(x)}, nil
	case map[string]any:
		if _, ok := x[markFixture]; ok && len(x) == 1 {
			return x, nil // placed by useEvaFixture
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			w, err := c.compact(x[k])
			if err != nil {
				return nil, err
			}
			out[k] = w
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			w, err := c.compact(e)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		return out, nil
	}
	return v, nil
}

// checkReserved fails when v holds a key the compact form reserves.
func checkReserved(v any) error {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == markText || k == markFixture {
				return fmt.Errorf("record holds a %q key, which the compact form reserves", k)
			}
			if err := checkReserved(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := checkReserved(e); err != nil {
				return err
			}
		}
	}
	return nil
}
