package toolname_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/internal/toolname"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"GetUserDetailsTool", true},
		{"get_customer_by_name", true},
		{"_GoodTool", true},
		{"a-b_c9", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"9lives", false},
		{"-dash", false},
		{"has space", false},
		{"dotted.name", false},
		{"ünïcode", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := toolname.Validate(tt.name)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, "invalid tool name")
			}
		})
	}
}
