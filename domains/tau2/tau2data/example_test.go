package tau2data_test

import (
	"fmt"
	"io/fs"

	"github.com/voiceeval/schematools/domains/tau2/tau2data"
)

// List the telecom domain's files, as in a tau2 data directory.
func Example() {
	entries, err := fs.ReadDir(tau2data.FS, "telecom")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// db.json
	// split_tasks.json
	// tasks.json
	// user_db.json
}
