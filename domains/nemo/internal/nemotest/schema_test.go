package nemotest

import (
	"testing"

	"github.com/voiceeval/schematools/domains/nemo/internal/nemostate"
	"github.com/voiceeval/schematools/internal/pyschema"
	"github.com/voiceeval/schematools/registry"
	"github.com/voiceeval/schematools/state"
)

// TestSchemaParity builds every recorded construction of every
// non-eva tool and compares what it presents with the original's.
func TestSchemaParity(t *testing.T) {
	all, err := nemostate.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range all {
		if s.Domain == "eva_airline" {
			continue
		}
		n++
		t.Run(s.Domain+"/"+s.Tool, func(t *testing.T) {
			tl, err := reg.New(s.Domain, s.Tool, registry.Deps{State: state.New(), Args: s.ConstructedWith, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			if err := pyschema.Compare(tl, s); err != nil {
				t.Error(err)
			}
		})
	}
	if n != 31 {
		t.Errorf("%d constructions, want 31", n)
	}
}
