package calltest

import (
	"fmt"
	"strconv"
	"strings"
)

// checkPath validates an argument path: dot notation, numeric segments
// index lists ("items.0.sku"). Bracket notation is refused with the dot
// form it meant.
func checkPath(p string) error {
	if p == "" {
		return fmt.Errorf("empty path")
	}
	if strings.ContainsAny(p, "[]") {
		dot := strings.NewReplacer("[", ".", "]", "").Replace(p)
		dot = strings.ReplaceAll(dot, "'", "")
		dot = strings.ReplaceAll(dot, `"`, "")
		return fmt.Errorf("path %q uses bracket notation, which does not resolve; write %q", p, strings.TrimPrefix(dot, "."))
	}
	for _, seg := range strings.Split(p, ".") {
		if seg == "" {
			return fmt.Errorf("path %q has an empty segment", p)
		}
	}
	return nil
}

// resolve returns the value at path in args, and whether it exists.
func resolve(args map[string]any, path string) (any, bool) {
	var cur any = args
	for _, seg := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
