package nemodata_test

import (
	"fmt"
	"io/fs"

	"github.com/voiceeval/schematools/domains/nemo/nemodata"
)

// List what the fixtures hold at their root.
func Example() {
	entries, err := fs.ReadDir(nemodata.FS, ".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			fmt.Println(e.Name() + "/")
		} else {
			fmt.Println(e.Name())
		}
	}
	// Output:
	// basic_tools/
	// eva_airline/
	// other_domains/
	// scenarios/
	// tool_schemas.jsonl
}
