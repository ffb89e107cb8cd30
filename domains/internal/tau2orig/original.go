// Package tau2orig reads the schemas the Python tau2 tools present, as
// recorded in tau2data's tool_schemas.jsonl: tau2tools.New builds each
// tau2 tool from its original, and the packs' tests compare with it.
package tau2orig

import (
	"fmt"
	"sync"

	"github.com/voiceeval/schematools/domains/tau2/tau2data"
	"github.com/voiceeval/schematools/internal/pyschema"
)

// originals are the 73 recorded schemas of tau2data.SchemaFile, keyed by
// domain and tool name, parsed once.
var originals = sync.OnceValues(func() (map[[2]string]pyschema.Schema, error) {
	all, err := pyschema.ParseFS(tau2data.Schemas, tau2data.SchemaFile)
	if err != nil {
		return nil, err
	}
	out := make(map[[2]string]pyschema.Schema, len(all))
	for _, s := range all {
		key := [2]string{s.Domain, s.Name}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("tau2orig: %s: two schemas for %s/%s", tau2data.SchemaFile, s.Domain, s.Name)
		}
		out[key] = s
	}
	return out, nil
})

// Original returns the schema the Python original presents for the tool
// the model calls name in domain ("tau2_airline", "tau2_retail",
// "tau2_telecom"), as recorded in tau2data.SchemaFile: its name,
// description, properties (types, enums, texts, nested items) and
// required list. It fails for a tool the file does not list.
func Original(domain, name string) (pyschema.Schema, error) {
	all, err := originals()
	if err != nil {
		return pyschema.Schema{}, err
	}
	s, ok := all[[2]string{domain, name}]
	if !ok {
		return pyschema.Schema{}, fmt.Errorf("tau2orig: %s lists no tool %s/%s", tau2data.SchemaFile, domain, name)
	}
	return s, nil
}
