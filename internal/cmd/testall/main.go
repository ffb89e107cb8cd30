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
// In the repository's workspace (go.work, the default) it runs one
// `go test` over every module's packages (./..., ./cmd/..., …), so that
// packages of different modules test at once (go test's -p, the CPUs);
// with GOWORK=off it runs `go test ./...` in each module, one after the
// other. Its arguments go to every `go test`; the output comes as it
// comes, and it exits non-zero when any package failed, after running
// them all. -list prints the module directories and exits.
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
	if workspace(root) {
		patterns := make([]string, len(mods))
		for i, m := range mods {
			patterns[i] = "./" + filepath.ToSlash(filepath.Join(m, "..."))
		}
		fmt.Printf("== go test %s (modules %s, in the workspace)\n", strings.Join(append(args, patterns...), " "), strings.Join(mods, " "))
		if err := goTest(root, append(args, patterns...)); err != nil {
			fmt.Fprintf(os.Stderr, "testall: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("testall: %d modules passed\n", len(mods))
		return
	}
	var failed []string
	for _, m := range mods {
		fmt.Printf("== go test %s (module %s)\n", strings.Join(append(args, "./..."), " "), m)
		if err := goTest(filepath.Join(root, m), append(args, "./...")); err != nil {
			failed = append(failed, m)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(os.Stderr, "testall: %d of %d modules failed: %s\n", len(failed), len(mods), strings.Join(failed, ", "))
		os.Exit(1)
	}
	fmt.Printf("testall: %d modules passed\n", len(mods))
}

// goTest runs go test with args in dir, its output as it comes.
func goTest(dir string, args []string) error {
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// workspace reports whether go runs in a workspace at root (go env GOWORK
// names root's go.work: not GOWORK=off).
func workspace(root string) bool {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = root
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == filepath.Join(root, "go.work")
}

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
