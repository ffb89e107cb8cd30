package schematools_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/internal/repotree"
)

const modulePath = "github.com/voiceeval/schematools"

// goTool is the go command on PATH (go test runs with it there).
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	return p
}

// The library does not depend on its examples: no package outside
// examples/, in any module, imports one, in its code or its tests
// (go list -deps -test), and agent does not import rtvi.
func TestLibraryDoesNotDependOnExamples(t *testing.T) {
	goCmd := goTool(t)
	checked := 0
	mods, err := repotree.Modules(".")
	if err != nil || len(mods) < 2 {
		t.Fatalf("modules %v (%v): want the root and the nested ones", mods, err)
	}
	for _, dir := range mods {
		cmd := exec.Command(goCmd, "list", "-test", "-f", "{{.ImportPath}}\t{{join .Deps \" \"}}", "./...")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: go list: %v\n%s", dir, err, exitText(err))
		}
		for line := range strings.Lines(strings.TrimSpace(string(out))) {
			pkg, deps, _ := strings.Cut(strings.TrimSpace(line), "\t")
			name, _, _ := strings.Cut(pkg, " ") // "p [p.test]" is p's test build
			if strings.HasPrefix(name, modulePath+"/examples/") {
				continue
			}
			checked++
			for d := range strings.FieldsSeq(deps) {
				if strings.HasPrefix(d, modulePath+"/examples/") {
					t.Errorf("%s (module %s) depends on %s", pkg, dir, d)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package checked")
	}
	t.Logf("%d packages and test builds outside examples/ checked", checked)

	out, err := exec.Command(goCmd, "list", "-deps", "./agent").Output()
	if err != nil {
		t.Fatalf("go list -deps ./agent: %v\n%s", err, exitText(err))
	}
	for d := range strings.FieldsSeq(string(out)) {
		if d == modulePath+"/rtvi" || strings.HasPrefix(d, modulePath+"/rtvi/") {
			t.Errorf("agent imports %s", d)
		}
	}
}

func exitText(err error) string {
	if e, ok := err.(*exec.ExitError); ok {
		return string(e.Stderr)
	}
	return ""
}

// The examples are programs a newcomer learns from: no file under
// examples/, tests included, imports an internal package, so each shows
// what a user outside the repository can write.
func TestExamplesUsePublicPackagesOnly(t *testing.T) {
	files := 0
	err := filepath.WalkDir("examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, modulePath+"/") && strings.Contains("/"+p+"/", "/internal/") {
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no Go file under examples/")
	}
	t.Logf("%d Go files under examples/ checked", files)
}
