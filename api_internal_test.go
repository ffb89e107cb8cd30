package schematools_test

import (
	"go/ast"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/internal/repotree"
)

// No exported name of a library package (every package outside
// examples/, commands and internal/ directories, domain packs included)
// shows an internal package's type: in a function's or method's
// signature, an exported struct field (embedded ones included), an
// exported variable's or constant's type, or what an exported type is
// defined as. Code outside the module could not name or build it.
//
// knownLeaks are the ones left (issue #40 removes them): a leak not in
// the list fails, and so does a listed one that is gone, so the list only
// shrinks.
func TestNoInternalTypeInExportedAPI(t *testing.T) {
	var leaks []string
	files := 0
	err := repotree.LibraryFiles(".", func(dir, _ string, f *ast.File) error {
		files++
		internal := map[string]string{} // import name -> path, for internal packages
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(strings.Split(p, "/"), "internal") {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			internal[name] = p
		}
		if len(internal) == 0 {
			return nil
		}
		report := func(where string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := s.X.(*ast.Ident); ok && internal[x.Name] != "" {
						leaks = append(leaks, dir+": "+where+": "+internal[x.Name]+"."+s.Sel.Name)
					}
				}
				// Function bodies are not API.
				_, lit := n.(*ast.FuncLit)
				return !lit
			})
		}
		fields := func(where string, fl *ast.FieldList) {
			if fl == nil {
				return
			}
			for _, fd := range fl.List {
				exported := len(fd.Names) == 0 // embedded
				for _, n := range fd.Names {
					exported = exported || n.IsExported()
				}
				if exported {
					report(where, fd.Type)
				}
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				where := d.Name.Name
				if d.Recv != nil {
					recv := repotree.ReceiverType(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					where = recv + "." + where
				}
				report(where, d.Type)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						switch tt := s.Type.(type) {
						case *ast.StructType:
							fields(s.Name.Name, tt.Fields)
						case *ast.InterfaceType:
							fields(s.Name.Name, tt.Methods)
						default:
							report(s.Name.Name, s.Type)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Type != nil {
								report(n.Name, s.Type)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no file read")
	}
	for _, l := range leaks {
		if !slices.Contains(knownLeaks, l) {
			t.Error("internal type in the exported API: " + l)
		}
	}
	for _, l := range knownLeaks {
		if !slices.Contains(leaks, l) {
			t.Errorf("gone, take it off knownLeaks: %s", l)
		}
	}
	t.Logf("%d files of library packages read", files)
}

var knownLeaks = []string{}
