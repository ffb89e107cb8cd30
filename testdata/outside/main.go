// Command outside is a program a user writes in a module of their own,
// resolving schematools from a module proxy: TestOutsideModule runs it.
package main

import (
	"fmt"

	"github.com/voiceeval/schematools/provider/openai"
	"github.com/voiceeval/schematools/state"
)

func main() {
	st := state.New()
	var m *openai.Model
	fmt.Println("outside:", st != nil, m == nil)
}
