package tau2script

import (
	"strings"
	"testing"
)

// ScenarioSuffix never panics, and an id that does not start with "[" is
// its own suffix.
func FuzzScenarioSuffix(f *testing.F) {
	for _, s := range []string{"7", "[mms_issue]airplane_mode_on|data_mode_off[PERSONA:Hard]", "[a]b[PERSONA:None]", "[", "[]", "[a][PERSONA:]", "[a]|[PERSONA:x]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		got := ScenarioSuffix(id)
		if !strings.HasPrefix(id, "[") && got != id {
			t.Fatalf("%q → %q", id, got)
		}
	})
}
