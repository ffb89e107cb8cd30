package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/voiceeval/schematools/tool"
)

// geminiKeywords are the schema keywords Gemini's function declarations
// accept; others are removed.
var geminiKeywords = []string{"type", "format", "description", "nullable", "enum", "properties", "required", "items",
	"minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "pattern", "anyOf", "title", "propertyOrdering"}

// geminiType is the name in Gemini's Type enum of a JSON Schema type, or
// of the Python type names some originals present ("list", "float").
func geminiType(typ string) (string, bool) {
	if name, ok := pythonTypes[typ]; ok {
		typ = name
	}
	if slices.Contains(jsonTypes, typ) {
		return strings.ToUpper(typ), true
	}
	return "", false
}

// geminiInt64s are the keywords of Gemini's Schema that are int64 fields:
// JSON strings in [Gemini], numbers in [GeminiGo].
var geminiInt64s = []string{"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"}

// geminiFormats are the formats Gemini accepts, by type.
var geminiFormats = map[string][]string{
	"string":  {"enum", "date-time"},
	"number":  {"float", "double"},
	"integer": {"int32", "int64"},
}

// Gemini returns the tools as one {"functionDeclarations": [...]} tool
// (JSON text) for @google/genai and the REST API, and what it changed
// ("tool: path.keyword (what)"), sorted: the keywords it removed, the
// types it renamed, the values it writes as JSON text.
//
//   - Types are the names of Gemini's Type enum (STRING, OBJECT, …), also
//     for the Python names some originals present ("list" is ARRAY); type
//     lists with null become nullable, other type lists keep their first
//     type.
//   - The int64 keywords (minItems, maxLength, …) are JSON strings ("1"),
//     as @google/genai's Schema type has them; [GeminiGo] writes numbers.
//   - Every object with properties carries propertyOrdering: its
//     properties in the order written, at the top level the tool's
//     parameter order.
//   - Gemini refuses an OBJECT without properties and an ARRAY without
//     items. A tool with no parameters has no "parameters"; a parameter
//     that is an open map (an object without properties) or a list
//     without an item schema is written as a STRING whose description
//     asks for JSON text of an object (of an array): decode a call's
//     arguments with [GeminiArguments] before dispatching it.
func Gemini(tools []tool.Tool) (json.RawMessage, []string, error) {
	return gemini(tools, false)
}

// GeminiGo is [Gemini] for Google's Go SDK: the same tool, with the int64
// keywords written as JSON numbers, so that the text unmarshals into
// google.golang.org/genai's Tool (its Schema holds them as *int64, which
// encoding/json will not read from a string). The REST API takes either.
func GeminiGo(tools []tool.Tool) (json.RawMessage, []string, error) {
	return gemini(tools, true)
}

func gemini(tools []tool.Tool, numbers bool) (json.RawMessage, []string, error) {
	decls := make([]any, 0, len(tools))
	var removed []string
	for _, t := range tools {
		p, order, err := parameters(t)
		if err != nil {
			return nil, nil, err
		}
		g := geminiWriter{tool: t.Name(), removed: &removed, numbers: numbers}
		params := g.schema(p, "")
		decl := object{{"name", t.Name()}, {"description", t.Description()}}
		if props, ok := params["properties"].(map[string]any); ok {
			top := ordered(params, order)
			names := make([]any, 0, len(props))
			for _, m := range inOrder(props, order) {
				names = append(names, m.key)
			}
			for i := range top {
				if top[i].key == "propertyOrdering" {
					top[i].value = names
				}
			}
			decl = append(decl, member{"parameters", top})
		}
		decls = append(decls, decl)
	}
	sort.Strings(removed)
	data, err := encode(object{{"functionDeclarations", decls}})
	if err != nil {
		return nil, nil, fmt.Errorf("schema: %w", err)
	}
	return data, removed, nil
}

// geminiWriter rewrites one tool's schemas for Gemini.
type geminiWriter struct {
	tool    string
	removed *[]string
	numbers bool // int64 keywords as JSON numbers (GeminiGo)
}

func (g geminiWriter) report(at, what string) {
	*g.removed = append(*g.removed, g.tool+": "+path(at, what))
}

// opaque says whether s, below the top level, is a value Gemini's Schema
// cannot describe — an object without properties (an open map) or an
// array without an item schema — and which of the two.
func opaque(s map[string]any) (string, bool) {
	typ, _ := mainType(s).(string)
	if name, ok := pythonTypes[typ]; ok {
		typ = name
	}
	switch typ {
	case "object":
		props, _ := s["properties"].(map[string]any)
		for _, sub := range props {
			if _, ok := sub.(map[string]any); ok {
				return "", false
			}
		}
		return "object", true
	case "array":
		if _, ok := s["items"].(map[string]any); !ok {
			return "array", true
		}
	}
	return "", false
}

// jsonText is the STRING schema that stands for an opaque value: its
// description, told to expect JSON text, and its nullability.
func (g geminiWriter) jsonText(s map[string]any, kind, at string) map[string]any {
	without := map[string]string{"object": "properties", "array": "items"}[kind]
	*g.removed = append(*g.removed, fmt.Sprintf("%s: %s (an %s without %s; written STRING holding JSON text)", g.tool, at, kind, without))
	note := fmt.Sprintf("Give it as a string of JSON text: a JSON %s.", kind)
	desc, _ := s["description"].(string)
	if desc != "" {
		desc += " " + note
	} else {
		desc = note
	}
	out := map[string]any{"type": "STRING", "description": desc}
	if slices.Contains(typeNames(s["type"]), "null") {
		out["nullable"] = true
	}
	return out
}

func (g geminiWriter) schema(s map[string]any, at string) map[string]any {
	if kind, ok := opaque(s); ok && at != "" {
		return g.jsonText(s, kind, at)
	}
	out := map[string]any{}
	typ, _ := mainType(s).(string)
	if list, ok := s["type"].([]any); ok {
		var types []any
		for _, x := range list {
			if x == "null" || x == "NoneType" || x == "None" {
				out["nullable"] = true
			} else {
				types = append(types, x)
			}
		}
		if len(types) > 1 {
			g.report(at, fmt.Sprintf("type (a list; kept %v)", types[0]))
		}
	} else if s["type"] == "null" {
		out["nullable"] = true
		typ = ""
		g.report(at, "type (null)")
	}
	if typ != "" {
		if name, ok := geminiType(typ); ok {
			out["type"] = name
			if name != strings.ToUpper(typ) {
				g.report(at, fmt.Sprintf("type (%s; written %s)", typ, name))
			}
			typ = strings.ToLower(name)
		} else {
			g.report(at, fmt.Sprintf("type (%s)", typ))
		}
	}
	for k, v := range s {
		switch {
		case k == "type":
		case k == "properties":
			props := map[string]any{}
			var dropped []string
			for name, sub := range v.(map[string]any) {
				if m, ok := sub.(map[string]any); ok {
					props[name] = g.schema(m, path(at, name))
				} else {
					dropped = append(dropped, name)
					g.report(at, name+" (schema without a type)")
				}
			}
			if len(props) > 0 {
				out[k] = props
				out["propertyOrdering"] = slices.Sorted(maps.Keys(props)) // as encoding/json writes a map
			}
			if req, ok := s["required"].([]any); ok && len(dropped) > 0 {
				kept := []any{}
				for _, r := range req {
					if !slices.Contains(dropped, fmt.Sprint(r)) {
						kept = append(kept, r)
					}
				}
				out["required"] = kept
			}
		case k == "required":
			if _, done := out[k]; !done {
				out[k] = v
			}
		case k == "propertyOrdering":
			// written from the properties
		case k == "items":
			if m, ok := v.(map[string]any); ok {
				out[k] = g.schema(m, path(at, "items"))
			} else {
				g.report(at, "items (schema without a type)")
			}
		case k == "anyOf":
			list, _ := v.([]any)
			alts := make([]any, 0, len(list))
			for i, sub := range list {
				if m, ok := sub.(map[string]any); ok {
					alts = append(alts, g.schema(m, path(at, fmt.Sprintf("anyOf.%d", i))))
				}
			}
			out[k] = alts
		case k == "enum" && typ != "string":
			g.report(at, "enum (Gemini takes enums on strings only)")
		case k == "format":
			if f, _ := v.(string); slices.Contains(geminiFormats[typ], f) {
				out[k] = v
			} else {
				g.report(at, fmt.Sprintf("format (%v)", v))
			}
		case slices.Contains(geminiInt64s, k):
			if n, ok := int64Of(v); ok && g.numbers {
				out[k] = n
			} else if ok {
				// Gemini's Schema holds these as int64, which proto3's
				// JSON (and @google/genai's Schema type) writes as a
				// string.
				out[k] = strconv.FormatInt(n, 10)
			} else {
				g.report(at, fmt.Sprintf("%s (%v: not an integer)", k, v))
			}
		case slices.Contains(geminiKeywords, k):
			out[k] = v
		default:
			g.report(at, k)
		}
	}
	if _, ok := out["properties"]; !ok {
		delete(out, "required") // Gemini refuses required names it has no properties for
	}
	return out
}

// int64Of reads an integer keyword's value (a json.Number from
// parameters, or a string a hand-written schema may hold).
func int64Of(v any) (int64, bool) {
	text := fmt.Sprint(v)
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}
