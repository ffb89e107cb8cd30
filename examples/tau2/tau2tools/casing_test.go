package tau2tools_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/voiceeval/schematools/examples/tau2/tau2tools"
)

// TestPyCasing pins Python's str.lower() and str.upper(), as CPython 3.11
// gives them, including full case mappings ("ß" upper is "SS", "İ" lower
// is "i̇") and the final sigma.
func TestPyCasing(t *testing.T) {
	tests := []struct{ in, lower, upper string }{
		{"HAT001", "hat001", "HAT001"},
		{"xehm4b", "xehm4b", "XEHM4B"},
		{"Daiki_Muller_1116", "daiki_muller_1116", "DAIKI_MULLER_1116"},
		{"", "", ""},
		{"İ", "i̇", "İ"},
		{"İstanbul", "i̇stanbul", "İSTANBUL"},
		{"ΑΣ", "ας", "ΑΣ"},
		{"ΑΣ Β", "ας β", "ΑΣ Β"},
		{"aΣb", "aσb", "AΣB"},
		{"Σ", "σ", "Σ"},
		{"ß", "ß", "SS"},
		{"Straße", "straße", "STRASSE"},
		{"ﬁ", "ﬁ", "FI"},
		{"ŉ", "ŉ", "ʼN"},
		{"ǰ", "ǰ", "J̌"},
		{"K", "k", "K"}, // the Kelvin sign
		{"ſ", "ſ", "S"},
		{"ı", "ı", "I"},
		{"ǅ", "ǆ", "Ǆ"},
		{"ᾼ", "ᾳ", "ΑΙ"},
		{"a\u0345", "a\u0345", "AΙ"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.lower, tau2tools.PyLower(tt.in), "lower(%q)", tt.in)
		assert.Equal(t, tt.upper, tau2tools.PyUpper(tt.in), "upper(%q)", tt.in)
	}
}
