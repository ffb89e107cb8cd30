package basictools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/voiceeval/schematools/domains/nemo/basictools"
	"github.com/voiceeval/schematools/domains/nemo/nemodata"
	"github.com/voiceeval/schematools/tool"
)

func Example() {
	root, _ := fs.Sub(nemodata.FS, "basic_tools")
	read, _ := basictools.NewReadFile(root)
	for _, p := range []string{"read_file/hello.txt", "../secret"} {
		_ = tool.Call(context.Background(), read, map[string]any{"file_path": p}, func(r any) error {
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
			return nil
		}, nil)
	}
	// Output:
	// {"file_path":"read_file/hello.txt","content":"Hello from the ReadFileTool fixture.\nSecond line.\n"}
	// {"error":"[Errno 13] Permission denied: '../secret'"}
}
