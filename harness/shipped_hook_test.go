package harness_test

import (
	"github.com/voiceeval/schematools/domains/nemo/nemoeval"
	"github.com/voiceeval/schematools/harness"
)

func init() { harness.ConvertShipped = nemoeval.Scenario }
