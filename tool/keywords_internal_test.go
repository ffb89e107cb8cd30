package tool

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's tour and the tool reference (docs/parity/tool.md) list the checked
// jsonschema keywords; they are checkedKeywords, in its order.
func TestCheckedKeywordsAreDocumented(t *testing.T) {
	word := regexp.MustCompile("[A-Za-z]+")
	listed := func(t *testing.T, file string, strip bool) []string {
		t.Helper()
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		text := string(data)
		if strip {
			text = regexp.MustCompile(`(?m)^\s*//\s?`).ReplaceAllString(text, "")
		}
		text = strings.Join(strings.Fields(text), " ")
		_, after, ok := strings.Cut(text, "a `jsonschema` rule (")
		require.True(t, ok, "%s lists the jsonschema keywords after \"a `jsonschema` rule (\"", file)
		list, _, _ := strings.Cut(after, ")")
		var out []string
		for _, w := range word.FindAllString(list, -1) {
			if w != "and" {
				out = append(out, w)
			}
		}
		return out
	}
	assert.Equal(t, checkedKeywords, listed(t, "../README.md", false), "README.md")
	assert.Equal(t, checkedKeywords, listed(t, "../docs/parity/tool.md", false), "docs/parity/tool.md")
}
