package tool

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// checkedKeywords are the JSON Schema keywords a `jsonschema` tag may
// state as a rule: each reaches the schema (invopop writes it) and the
// checks ([rules.check]). This is the one list; the package documentation
// and the README's tour name the same keywords, and a test compares them.
var checkedKeywords = []string{
	"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
}

// annotationKeywords are the `jsonschema` (and `jsonschema_extras`) tag
// keywords that describe a value without constraining it, so there is
// nothing to check; "required" (a bare word) is enforced by the binder.
var annotationKeywords = []string{"title", "description", "example"}

// inSchema reports whether the checked keyword kw is set on sc.
func inSchema(sc *jsonschema.Schema, kw string) bool {
	switch kw {
	case "enum":
		return len(sc.Enum) > 0
	case "minimum":
		return sc.Minimum != ""
	case "maximum":
		return sc.Maximum != ""
	case "exclusiveMinimum":
		return sc.ExclusiveMinimum != ""
	case "exclusiveMaximum":
		return sc.ExclusiveMaximum != ""
	case "multipleOf":
		return sc.MultipleOf != ""
	case "minLength":
		return sc.MinLength != nil
	case "maxLength":
		return sc.MaxLength != nil
	case "pattern":
		return sc.Pattern != ""
	case "minItems":
		return sc.MinItems != nil
	case "maxItems":
		return sc.MaxItems != nil
	case "uniqueItems":
		return sc.UniqueItems
	}
	return false
}

// checkTags refuses the jsonschema and jsonschema_extras tag keywords of
// struct field sf (whose reflected schema is sc) that the checks do not
// enforce, and a checked keyword that did not reach the schema: invopop
// drops silently a keyword that does not apply to the field's type
// (minLength on an integer) or whose value it cannot read (minimum=abc),
// and a schema without the rule means checks without it too.
func checkTags(sf reflect.StructField, sc *jsonschema.Schema) error {
	for _, part := range splitTag(sf.Tag.Get("jsonschema")) {
		name, val, hasVal := strings.Cut(part, "=")
		switch {
		case part == "" || (part == "required" && !hasVal) || (hasVal && slices.Contains(annotationKeywords, name)):
		case hasVal && slices.Contains(checkedKeywords, name):
			if name == "uniqueItems" && val != "true" {
				return fmt.Errorf("jsonschema keyword uniqueItems=%s: only uniqueItems=true is a rule (invopop writes true for any value)", val)
			}
			if sc == nil || (!inSchema(sc, name) && (sc.Items == nil || !inSchema(sc.Items, name))) {
				return fmt.Errorf("jsonschema keyword %s does not reach the schema: it does not apply to a %s, or its value is not one", part, schemaType(sc))
			}
		default:
			return fmt.Errorf("jsonschema keyword %q is not checked; the checks enforce %s (and \"required\"), and %s describe",
				name, strings.Join(checkedKeywords, ", "), strings.Join(annotationKeywords, ", "))
		}
	}
	for _, part := range splitTag(sf.Tag.Get("jsonschema_extras")) {
		if name, _, _ := strings.Cut(part, "="); part != "" && !slices.Contains(annotationKeywords, name) {
			return fmt.Errorf("jsonschema_extras keyword %q is not checked; extras may only describe (%s)",
				name, strings.Join(annotationKeywords, ", "))
		}
	}
	return nil
}

// schemaType names the JSON type of sc for an error message.
func schemaType(sc *jsonschema.Schema) string {
	if sc == nil || sc.Type == "" {
		return "value of any type"
	}
	return sc.Type
}

// splitTag splits a jsonschema tag on its commas, except those escaped
// with a backslash, as invopop reads it.
func splitTag(tag string) []string {
	if tag == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(tag, ",") {
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], `\`) {
			out[n-1] = strings.TrimSuffix(out[n-1], `\`) + "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}
