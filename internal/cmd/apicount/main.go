// Command apicount prints the number of exported identifiers of each
// library package (every package but commands, examples/, deploy/ and
// any internal/ directory) and their total, the domain packs (domains/)
// counted apart: package-level constants, variables, functions and types,
// and the exported methods of exported types. scripts/api-count.sh runs
// it.
package main

import (
	"fmt"
	"go/ast"
	"os"
	"sort"
	"strings"

	"github.com/voiceeval/schematools/internal/repotree"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	counts, names, err := count(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(1)
	}
	verbose := len(os.Args) > 2 && os.Args[2] == "-v"
	dirs := make([]string, 0, len(counts))
	for d := range counts {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	total, packs := 0, 0
	for _, d := range dirs {
		fmt.Printf("%-30s %4d\n", d, counts[d])
		if verbose {
			for _, n := range names[d] {
				fmt.Println("    " + n)
			}
		}
		if isPack(d) {
			packs += counts[d]
		} else {
			total += counts[d]
		}
	}
	fmt.Printf("%-30s %4d\n", "domain packs (domains/)", packs)
	fmt.Printf("%-30s %4d\n", "total", total)
}

// isPack says whether a directory holds a domain pack (domains/…), counted
// apart from the library.
func isPack(dir string) bool { return dir == "domains" || strings.HasPrefix(dir, "domains/") }

// count walks root's library packages and counts their exported
// identifiers, by directory.
func count(root string) (map[string]int, map[string][]string, error) {
	counts := map[string]int{}
	names := map[string][]string{}
	err := repotree.LibraryFiles(root, func(dir, _ string, f *ast.File) error {
		for _, n := range exported(f) {
			counts[dir]++
			names[dir] = append(names[dir], n)
		}
		return nil
	})
	for d := range names {
		sort.Strings(names[d])
	}
	return counts, names, err
}

// exported lists a file's exported identifiers.
func exported(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				out = append(out, d.Name.Name)
				continue
			}
			if recv := repotree.ReceiverType(d.Recv.List[0].Type); ast.IsExported(recv) {
				out = append(out, recv+"."+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						out = append(out, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}
