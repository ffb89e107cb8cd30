package harness_test

import (
	"github.com/voiceeval/schematools/examples/nemo/nemoeval"
	"github.com/voiceeval/schematools/harness"
)

func init() { harness.ConvertShipped = nemoeval.Scenario }
