// Package repotree walks this repository's tree the way its tools and
// layout tests need it: the Go modules it holds, and the files of its
// library packages.
//
//   - [Modules] lists "." and each nested module directory, sorted,
//     skipping what the go command skips (node_modules, testdata, hidden
//     and _-prefixed directories);
//   - [LibraryFiles] parses each non-test .go file of a library package:
//     every package but commands (package main, cmd/), examples/, scripts/,
//     docs/, deploy/ (manifests and their test) and any internal/
//     directory;
//   - [ReceiverType] names a method's receiver type.
package repotree

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// Modules lists "." and every directory below root holding a go.mod,
// relative to root, the nested ones in path order.
func Modules(root string) ([]string, error) {
	mods := []string{"."}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" && filepath.Dir(p) != root {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(mods[1:])
	return mods, err
}

// LibraryFiles calls fn with each non-test .go file of root's library
// packages, parsed (no object resolution), and the slash-separated
// directory of its package relative to root. fn's error stops the walk.
func LibraryFiles(root string, fn func(dir, path string, f *ast.File) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (strings.HasPrefix(base, ".") || base == "testdata" || base == "node_modules" ||
				rel == "examples" || rel == "cmd" || base == "internal" || rel == "scripts" || rel == "docs" || rel == "deploy") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		return fn(filepath.ToSlash(filepath.Dir(rel)), path, f)
	})
}

// ReceiverType names a method's receiver type: T, *T, T[P] or *T[P]; ""
// for anything else.
func ReceiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
