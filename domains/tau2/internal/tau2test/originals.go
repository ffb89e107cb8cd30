package tau2test

import (
	"encoding/json"
	"fmt"
	"github.com/voiceeval/schematools/domains/internal/tau2orig"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/tool"
)

// Original is one tool of a domain as its tests see it against the Python
// original: Presented is the tool as the domain builds it, Declared the
// same tool built with Properties: map[string]any{} (tau2tools.New) after its own options, so
// that it presents its parameters struct's own schema — the one its
// checks enforce.
type Original struct {
	Presented, Declared tool.Tool
}

// RequireOriginals checks every tool of domain against the schema the
// Python original presents (tau2orig.Original):
//
//   - what each tool presents is the original's, exactly: name,
//     description, properties with their texts, types, enums and nested
//     items, and required list (pyschema.Compare);
//   - what each tool declares — its parameters struct's own schema —
//     agrees with the original in all but the texts (DeclarationDiff),
//     except for the differences listed in known under the tool's name,
//     which must still be found, word for word: a difference that goes
//     away must leave the list too;
//   - the declared schema carries no texts: they are data, not Go.
//
// want is the number of tools the domain has; tools must hold them all.
func RequireOriginals(t *testing.T, domain string, want int, tools []Original, known map[string][]string) {
	t.Helper()
	require.Len(t, tools, want)
	seen := map[string]bool{}
	for _, tl := range tools {
		name := tl.Presented.Name()
		require.Equal(t, name, tl.Declared.Name())
		require.False(t, seen[name], "%s twice", name)
		seen[name] = true
		orig, err := tau2orig.Original(domain, name)
		require.NoError(t, err)
		assert.NoError(t, pyschema.Compare(tl.Presented, orig))

		declared := tool.Schema(tl.Declared).Parameters.Properties
		assert.Empty(t, texts(declared), "%s: the Go declaration carries texts", name)
		assert.Equal(t, known[name], DeclarationDiff(tl.Declared, orig), "%s: the declaration's differences from the original", name)
	}
	for name := range known {
		assert.True(t, seen[name], "known differences for %s, which the domain does not have", name)
	}
}

// DeclarationDiff lists how the schema tl presents differs from s in what
// argument checks can enforce — property names and order, required list,
// and within each property (nested items and objects included) every
// keyword but the texts ("description", "title") — or nil. Called on a
// tool that presents its parameters struct's own schema, it says whether
// the Go declaration checks what the original presents.
func DeclarationDiff(tl tool.Tool, s pyschema.Schema) []string {
	got := tool.Schema(tl).Parameters
	var diffs []string
	order := got.Order
	if order == nil {
		order = []string{}
	}
	if want := s.Order; !slices.Equal(order, want) && len(order)+len(want) > 0 {
		diffs = append(diffs, fmt.Sprintf("properties %q, the original's %q", order, want))
	}
	if !slices.Equal(got.Required, s.Required) {
		diffs = append(diffs, fmt.Sprintf("required %q, the original's %q", got.Required, s.Required))
	}
	for _, k := range s.Order {
		g, w := checked(got.Properties[k]), checked(s.Properties[k])
		if !reflect.DeepEqual(g, w) {
			diffs = append(diffs, fmt.Sprintf("%s: %s, the original's %s", k, jsonText(g), jsonText(w)))
		}
	}
	return diffs
}

// checked is a property schema as JSON reads it back, without its texts.
func checked(v any) any { return stripTexts(jsonTree(v)) }

// jsonTree is v as encoding/json reads it back (numbers as float64).
func jsonTree(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var tree any
	if json.Unmarshal(b, &tree) != nil {
		return v
	}
	return tree
}

// stripTexts removes "description" and "title" from every schema in v.
// Under "properties" the keys are argument names, kept whatever they are.
func stripTexts(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch k {
			case "description", "title":
			case "properties":
				props, ok := e.(map[string]any)
				if !ok {
					out[k] = e
					continue
				}
				p := make(map[string]any, len(props))
				for name, sch := range props {
					p[name] = stripTexts(sch)
				}
				out[k] = p
			default:
				out[k] = stripTexts(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripTexts(e)
		}
		return out
	}
	return v
}

// texts lists the paths of the texts ("description", "title") in the
// properties props, for the check that a declaration carries none.
func texts(props map[string]any) []string {
	var out []string
	for name, sch := range props {
		walk(jsonTree(sch), name, &out)
	}
	slices.Sort(out)
	return out
}

func walk(v any, at string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "description", "title":
				*out = append(*out, at+"."+k)
			case "properties":
				if props, ok := e.(map[string]any); ok {
					for name, sch := range props {
						walk(sch, at+"."+name, out)
					}
				}
			default:
				walk(e, at+"."+k, out)
			}
		}
	case []any:
		for i, e := range x {
			walk(e, fmt.Sprintf("%s[%d]", at, i), out)
		}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
