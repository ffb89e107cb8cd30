// Command testall runs `go test ./...` in every Go module of the repository:
// the core module at the root, then each nested module (a directory below it
// holding its own go.mod, such as provider/openai), in path order. The root's
// ./... stops at a nested go.mod, so `go test ./...` alone tests the core
// module only; this is the README's test command.
//
// Usage, from the repository root (or any directory inside it):
//
//	go run ./internal/cmd/testall [go test flags]   # e.g. -race -count=1
//
// It passes its arguments to every `go test`, runs the modules one after the
// other with their output as it comes, and exits non-zero when any failed,
// after running them all. -list prints the module directories and exits.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/voiceeval/schematools/internal/repotree"
)

func main() {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		os.Exit(2)
	}
	mods, err := repotree.Modules(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		os.Exit(2)
	}
	args := os.Args[1:]
	if slices.Contains(args, "-list") {
		for _, m := range mods {
			fmt.Println(m)
		}
		return
	}
	var failed []string
	for _, m := range mods {
		fmt.Printf("== go test %s (module %s)\n", strings.Join(append(args, "./..."), " "), m)
		cmd := exec.Command("go", append(append([]string{"test"}, args...), "./...")...)
		cmd.Dir = filepath.Join(root, m)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			failed = append(failed, m)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(os.Stderr, "testall: %d of %d modules failed: %s\n", len(failed), len(mods), strings.Join(failed, ", "))
		os.Exit(1)
	}
	fmt.Printf("testall: %d modules passed\n", len(mods))
}

// repoRoot is the nearest directory at or above the working directory that
// holds the core module's go.mod (module github.com/voiceeval/schematools).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modulePath(string(data)) == "github.com/voiceeval/schematools" {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of github.com/voiceeval/schematools at or above the working directory")
		}
		dir = parent
	}
}

func modulePath(gomod string) string {
	for _, line := range strings.Split(gomod, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
