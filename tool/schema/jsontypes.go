package schema

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// reporter collects one export's changes.
type reporter struct{ lines []string }

func (r *reporter) add(toolName, at, what string) {
	r.lines = append(r.lines, toolName+": "+path(at, what))
}

// flush appends the changes, sorted, to dst (when set).
func (r *reporter) flush(dst *[]string) {
	if dst == nil {
		return
	}
	sort.Strings(r.lines)
	*dst = append(*dst, r.lines...)
}

// pythonTypes maps the Python type names some originals present as a
// schema's "type" (NeMo's PlaceOrderTool says "list" and "float") to JSON
// Schema's.
var pythonTypes = map[string]string{
	"str": "string", "int": "integer", "float": "number", "bool": "boolean",
	"list": "array", "tuple": "array", "dict": "object", "NoneType": "null", "None": "null",
}

// subschemaKeys are the keywords whose value is one schema, and
// subschemaLists those whose value is a list of schemas; toJSONSchema
// follows them.
var (
	subschemaKeys  = []string{"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"}
	subschemaLists = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
)

// toJSONSchema rewrites, in place, a fresh schema tree into one every
// validating provider accepts: a type name JSON Schema lacks is mapped
// (pythonTypes) or, when it is no type at all, removed (any value); an
// array without an item schema gets "items": {} (any item), which OpenAI
// requires. Each change is reported under toolName.
func toJSONSchema(s map[string]any, toolName, at string, r *reporter) {
	switch typ := s["type"].(type) {
	case string:
		if name, ok := jsonTypeName(typ, toolName, at, r); ok {
			s["type"] = name
		} else {
			delete(s, "type")
		}
	case []any:
		var names []any
		for _, x := range typ {
			n, isStr := x.(string)
			if !isStr {
				names = append(names, x)
				continue
			}
			if name, ok := jsonTypeName(n, toolName, at, r); ok && !slices.Contains(names, any(name)) {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			delete(s, "type")
		} else {
			s["type"] = names
		}
	}
	if slices.Contains(typeNames(s["type"]), "array") {
		_, items := s["items"]
		_, prefix := s["prefixItems"]
		if !items && !prefix {
			s["items"] = map[string]any{}
			r.add(toolName, at, "items (none; written {}, any value)")
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, sub := range props {
			if m, isMap := sub.(map[string]any); isMap {
				toJSONSchema(m, toolName, path(at, name), r)
			}
		}
	}
	for _, k := range subschemaKeys {
		if m, ok := s[k].(map[string]any); ok {
			toJSONSchema(m, toolName, path(at, k), r)
		}
	}
	for _, k := range subschemaLists {
		list, _ := s[k].([]any)
		for i, sub := range list {
			if m, ok := sub.(map[string]any); ok {
				toJSONSchema(m, toolName, path(at, fmt.Sprintf("%s.%d", k, i)), r)
			}
		}
	}
}

// jsonTypeName is JSON Schema's name for typ, reporting a mapped or
// removed name; false means the type is removed.
func jsonTypeName(typ, toolName, at string, r *reporter) (string, bool) {
	if slices.Contains(jsonTypes, typ) {
		return typ, true
	}
	if name, ok := pythonTypes[typ]; ok {
		r.add(toolName, at, fmt.Sprintf("type (%s; written %s)", typ, name))
		return name, true
	}
	r.add(toolName, at, fmt.Sprintf("type (%s; removed: not a JSON Schema type)", strings.TrimSpace(typ)))
	return "", false
}
