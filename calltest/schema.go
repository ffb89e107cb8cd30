package calltest

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Validates checks that the argument at path validates against schema,
// a JSON Schema given as decoded JSON (the json_schema check). The
// keywords understood are type (a name or a list), enum, const,
// properties, required, additionalProperties (a boolean or a schema),
// items, minItems, maxItems, minLength, maxLength, pattern (RE2,
// searched), minimum, maximum, exclusiveMinimum, exclusiveMaximum, anyOf,
// allOf and not (and the annotations description, title, $schema,
// default, examples); any other keyword is refused when the test is
// checked, so a schema never passes by being misread.
func Validates(path string, schema map[string]any) ParamCheck {
	return ParamCheck{Path: path, Type: evalJSONSchema, Schema: schema}
}

var schemaKeywords = []string{
	"type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
	"minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"anyOf", "allOf", "not", "description", "title", "$schema", "default", "examples",
}

// maxSchemaDepth bounds the nesting of a json_schema check's schema.
const maxSchemaDepth = 64

var schemaTypes = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

// checkSchema refuses keywords the validator does not understand, keyword
// values of the wrong type, invalid patterns and schemas nested deeper
// than maxSchemaDepth, so that a schema is never silently misread.
func checkSchema(s any, at string, depth int) error {
	if depth > maxSchemaDepth {
		return fmt.Errorf("schema nested deeper than %d levels", maxSchemaDepth)
	}
	if _, isBool := s.(bool); isBool {
		return nil
	}
	m, ok := s.(map[string]any)
	if !ok {
		return fmt.Errorf("schema at %s is not an object", at)
	}
	bad := func(k, want string) error { return fmt.Errorf("schema at %s: %s must be %s", at, k, want) }
	for k, v := range m {
		if !slices.Contains(schemaKeywords, k) {
			return fmt.Errorf("schema at %s: keyword %q is not supported", at, k)
		}
		switch k {
		case "type":
			names, isList := v.([]any)
			if !isList {
				names = []any{v}
			}
			for _, n := range names {
				if name, _ := n.(string); !slices.Contains(schemaTypes, name) {
					return bad(k, "a JSON type name or a list of them")
				}
			}
		case "enum":
			if _, ok := v.([]any); !ok {
				return bad(k, "a list")
			}
		case "required":
			list, ok := v.([]any)
			if !ok {
				return bad(k, "a list of property names")
			}
			for _, r := range list {
				if _, ok := r.(string); !ok {
					return bad(k, "a list of property names")
				}
			}
		case "pattern":
			p, ok := v.(string)
			if !ok {
				return bad(k, "a string")
			}
			if _, err := regexp.Compile(p); err != nil {
				return fmt.Errorf("schema at %s: invalid pattern: %w", at, err)
			}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			if _, ok := number(v); !ok {
				return bad(k, "a number (the draft-4 boolean form is not supported)")
			}
		case "minLength", "maxLength", "minItems", "maxItems":
			if f, ok := number(v); !ok || f < 0 || f != math.Trunc(f) {
				return bad(k, "a non-negative integer")
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return bad(k, "an object")
			}
			for name, sub := range props {
				if err := checkSchema(sub, at+".properties."+name, depth+1); err != nil {
					return err
				}
			}
		case "items", "not", "additionalProperties":
			if err := checkSchema(v, at+"."+k, depth+1); err != nil {
				return err
			}
		case "anyOf", "allOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return bad(k, "a non-empty list of schemas")
			}
			for i, sub := range list {
				if err := checkSchema(sub, fmt.Sprintf("%s.%s.%d", at, k, i), depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// validateSchema returns the first reason v does not validate, or "".
func validateSchema(s any, v any, at string) string {
	if b, ok := s.(bool); ok {
		if !b {
			return at + ": no value is allowed here"
		}
		return ""
	}
	m, _ := s.(map[string]any)
	if t, ok := m["type"]; ok && !typeMatches(t, v) {
		return fmt.Sprintf("%s: expected type %s, got %s", at, canonicalText(t), describe(v))
	}
	if e, ok := m["enum"].([]any); ok {
		found := false
		for _, x := range e {
			if typedEqual(x, v) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("%s: %s is not one of %s", at, describe(v), describeAll(e))
		}
	}
	if c, ok := m["const"]; ok && !typedEqual(c, v) {
		return fmt.Sprintf("%s: expected %s, got %s", at, describe(c), describe(v))
	}
	if f, isNum := number(v); isNum {
		for _, b := range []struct {
			key string
			bad func(f, lim float64) bool
			op  string
		}{
			{"minimum", func(f, l float64) bool { return f < l }, ">="},
			{"maximum", func(f, l float64) bool { return f > l }, "<="},
			{"exclusiveMinimum", func(f, l float64) bool { return f <= l }, ">"},
			{"exclusiveMaximum", func(f, l float64) bool { return f >= l }, "<"},
		} {
			if lim, ok := number(m[b.key]); ok && b.bad(f, lim) {
				return fmt.Sprintf("%s: %v is not %s %v", at, f, b.op, lim)
			}
		}
	}
	if str, isStr := v.(string); isStr {
		n := utf8.RuneCountInString(str)
		if lim, ok := number(m["minLength"]); ok && float64(n) < lim {
			return fmt.Sprintf("%s: %q is shorter than %v characters", at, str, lim)
		}
		if lim, ok := number(m["maxLength"]); ok && float64(n) > lim {
			return fmt.Sprintf("%s: %q is longer than %v characters", at, str, lim)
		}
		if p, ok := m["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Sprintf("%s: %q does not match /%s/", at, str, p)
		}
	}
	if list, isList := v.([]any); isList {
		if lim, ok := number(m["minItems"]); ok && float64(len(list)) < lim {
			return fmt.Sprintf("%s: %d items, fewer than %v", at, len(list), lim)
		}
		if lim, ok := number(m["maxItems"]); ok && float64(len(list)) > lim {
			return fmt.Sprintf("%s: %d items, more than %v", at, len(list), lim)
		}
		if items, ok := m["items"]; ok {
			for i, e := range list {
				if why := validateSchema(items, e, at+"."+strconv.Itoa(i)); why != "" {
					return why
				}
			}
		}
	}
	if obj, isObj := v.(map[string]any); isObj {
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if name, _ := r.(string); name != "" {
					if _, ok := obj[name]; !ok {
						return fmt.Sprintf("%s: %s is required", at, name)
					}
				}
			}
		}
		props, _ := m["properties"].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if sub, ok := props[k]; ok {
				if why := validateSchema(sub, obj[k], at+"."+k); why != "" {
					return why
				}
			} else if extra, ok := m["additionalProperties"]; ok {
				if why := validateSchema(extra, obj[k], at+"."+k); why != "" {
					return why
				}
			}
		}
	}
	if list, ok := m["allOf"].([]any); ok {
		for _, sub := range list {
			if why := validateSchema(sub, v, at); why != "" {
				return why
			}
		}
	}
	if list, ok := m["anyOf"].([]any); ok {
		var whys []string
		for _, sub := range list {
			why := validateSchema(sub, v, at)
			if why == "" {
				whys = nil
				break
			}
			whys = append(whys, why)
		}
		if whys != nil {
			return fmt.Sprintf("%s: matches none of anyOf (%s)", at, strings.Join(whys, "; "))
		}
	}
	if sub, ok := m["not"]; ok && validateSchema(sub, v, at) == "" {
		return at + ": matches the schema under not"
	}
	return ""
}

// typeMatches checks a JSON Schema type (a name or a list of names).
func typeMatches(t any, v any) bool {
	if list, ok := t.([]any); ok {
		for _, x := range list {
			if typeMatches(x, v) {
				return true
			}
		}
		return false
	}
	name, _ := t.(string)
	k := kind(v)
	switch name {
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	case "number":
		return k == "number"
	}
	return name == k
}
