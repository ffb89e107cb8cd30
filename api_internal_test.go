package schematools_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voiceeval/schematools/internal/repotree"
)

// No exported name of a library package (every package outside
// examples/, commands and internal/ directories, domain packs and the
// nested modules' adapters included) shows an internal package's type.
// The check is made on the packages' types (go/types, from the compiler's
// export data), so it sees what a user's compiler sees: a function's or
// method's signature (methods promoted from embedded types included), an
// exported struct field or embedded type, an interface's methods, an
// exported variable's or constant's type, a type's definition, an alias,
// and every type argument of an instantiated generic. Code outside the
// module could not name or build such a type.
func TestNoInternalTypeInExportedAPI(t *testing.T) {
	goCmd := goTool(t)
	dirs := map[string]bool{} // library package directories, relative to the root
	if err := repotree.LibraryFiles(".", func(dir, _ string, _ *ast.File) error {
		dirs[dir] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mods, err := repotree.Modules(".")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var leaks []string
	for _, mod := range mods {
		if mod == "cmd" {
			continue // commands, not library
		}
		pkgs, export := listExports(t, goCmd, mod)
		fset := token.NewFileSet()
		imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			f, ok := export[path]
			if !ok {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(f)
		})
		for _, p := range pkgs {
			rel, err := filepath.Rel(root, p.Dir)
			if err != nil || !dirs[filepath.ToSlash(rel)] {
				continue
			}
			pkg, err := imp.Import(p.ImportPath)
			if err != nil {
				t.Fatalf("import %s: %v", p.ImportPath, err)
			}
			checked++
			leaks = append(leaks, apiLeaks(filepath.ToSlash(rel), pkg)...)
		}
	}
	if checked < len(dirs) {
		t.Errorf("%d library packages checked, %d library directories found", checked, len(dirs))
	}
	for _, l := range leaks {
		t.Error("internal type in the exported API: " + l)
	}
	t.Logf("%d library packages checked on their types", checked)
}

type listedPackage struct {
	ImportPath, Dir, Export string
	DepOnly, Standard       bool
}

// listExports lists mod's packages (./...) and the export data files of
// them and their dependencies, building what is not in the build cache.
func listExports(t *testing.T, goCmd, mod string) (own []listedPackage, export map[string]string) {
	t.Helper()
	cmd := exec.Command(goCmd, "list", "-export", "-deps", "-json=ImportPath,Dir,Export,DepOnly,Standard", "./...")
	cmd.Dir = mod
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: go list -export: %v\n%s", mod, err, exitText(err))
	}
	export = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: go list output: %v", mod, err)
		}
		export[p.ImportPath] = p.Export
		if !p.DepOnly {
			own = append(own, p)
		}
	}
	return own, export
}

// apiLeaks walks every exported name of pkg and reports each internal
// package's type it shows, as "dir: where: path.Name".
func apiLeaks(dir string, pkg *types.Package) []string {
	var leaks []string
	var walk func(where string, typ types.Type, seen map[types.Type]bool)
	walk = func(where string, typ types.Type, seen map[types.Type]bool) {
		if typ == nil || seen[typ] {
			return
		}
		seen[typ] = true
		switch t := typ.(type) {
		case *types.Alias:
			// Another package's exported alias is a name users can write
			// (as option.RequestOption of the OpenAI and Anthropic SDKs,
			// which aliases their internal requestconfig's type); this
			// package's aliases are checked for what they stand for.
			if obj := t.Obj(); obj.Pkg() == pkg || !obj.Exported() || obj.Pkg() == nil || isInternalPath(obj.Pkg().Path()) {
				walk(where, t.Rhs(), seen)
			}
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					walk(where, args.At(i), seen)
				}
			}
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && isInternalPath(obj.Pkg().Path()) {
				leaks = append(leaks, dir+": "+where+": "+obj.Pkg().Path()+"."+obj.Name())
			}
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					walk(where, args.At(i), seen)
				}
			}
			// A named type of another package is checked as that
			// package's API; this package's own are walked from its scope.
		case *types.Pointer:
			walk(where, t.Elem(), seen)
		case *types.Slice:
			walk(where, t.Elem(), seen)
		case *types.Array:
			walk(where, t.Elem(), seen)
		case *types.Map:
			walk(where, t.Key(), seen)
			walk(where, t.Elem(), seen)
		case *types.Chan:
			walk(where, t.Elem(), seen)
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tup.Len() {
					walk(where, tup.At(i).Type(), seen)
				}
			}
			if tps := t.TypeParams(); tps != nil {
				for i := range tps.Len() {
					walk(where, tps.At(i).Constraint(), seen)
				}
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); f.Exported() || f.Embedded() {
					walk(where+"."+f.Name(), f.Type(), seen)
				}
			}
		case *types.Interface:
			for i := range t.NumEmbeddeds() {
				walk(where, t.EmbeddedType(i), seen)
			}
			for i := range t.NumMethods() {
				if m := t.Method(i); m.Exported() {
					walk(where+"."+m.Name(), m.Type(), seen)
				}
			}
		case *types.Union:
			for i := range t.Len() {
				walk(where, t.Term(i).Type(), seen)
			}
		case *types.TypeParam:
			walk(where, t.Constraint(), seen)
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.TypeName:
			if o.IsAlias() {
				walk(name, o.Type(), map[types.Type]bool{})
				continue
			}
			named, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			walk(name, named.Underlying(), map[types.Type]bool{})
			if tps := named.TypeParams(); tps != nil {
				for i := range tps.Len() {
					walk(name, tps.At(i).Constraint(), map[types.Type]bool{})
				}
			}
			// Methods of T and *T, promoted ones included.
			ms := types.NewMethodSet(types.NewPointer(named))
			for i := range ms.Len() {
				m := ms.At(i).Obj()
				if m.Exported() {
					walk(name+"."+m.Name(), m.Type(), map[types.Type]bool{})
				}
			}
		default: // Func, Var, Const
			walk(name, obj.Type(), map[types.Type]bool{})
		}
	}
	slices.Sort(leaks)
	return slices.Compact(leaks)
}

func isInternalPath(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "internal")
}

// The walk finds what the AST could not: a leak through an inferred
// variable type, a promoted method and a type argument; an alias is a
// leak in this package, a name users can write in another.
func TestAPILeaksSeesTypes(t *testing.T) {
	internal := types.NewPackage("example.com/m/internal/x", "x")
	hidden := types.NewNamed(types.NewTypeName(token.NoPos, internal, "Hidden", nil), types.Typ[types.Int], nil)

	pkg := types.NewPackage("example.com/m/pub", "pub")
	scope := pkg.Scope()
	// var V = x.New()  (no type written in the source)
	scope.Insert(types.NewVar(token.NoPos, pkg, "V", hidden))
	// type E struct{ inner }  where inner has an exported method returning x.Hidden
	inner := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "inner", nil), types.NewStruct(nil, nil), nil)
	inner.AddMethod(types.NewFunc(token.NoPos, pkg, "Get", types.NewSignatureType(
		types.NewVar(token.NoPos, pkg, "", inner), nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, pkg, "", hidden)), false)))
	e := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "E", nil), types.NewStruct(
		[]*types.Var{types.NewField(token.NoPos, pkg, "inner", inner, true)}, nil), nil)
	scope.Insert(e.Obj())
	// var L []G[x.Hidden]
	tp := types.NewTypeParam(types.NewTypeName(token.NoPos, pkg, "T", nil), types.NewInterfaceType(nil, nil))
	g := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "G", nil), types.NewStruct(nil, nil), nil)
	g.SetTypeParams([]*types.TypeParam{tp})
	inst, err := types.Instantiate(nil, g, []types.Type{hidden}, true)
	if err != nil {
		t.Fatal(err)
	}
	scope.Insert(types.NewVar(token.NoPos, pkg, "L", types.NewSlice(inst)))

	// type A = x.Hidden (this package's alias: a leak) and
	// var O other.Opt, where other.Opt = x.Hidden is another public
	// package's alias (a name users can write: not a leak).
	scope.Insert(types.NewAlias(types.NewTypeName(token.NoPos, pkg, "A", nil), hidden).Obj())
	other := types.NewPackage("example.com/m/other", "other")
	opt := types.NewAlias(types.NewTypeName(token.NoPos, other, "Opt", nil), hidden)
	scope.Insert(types.NewVar(token.NoPos, pkg, "O", opt))

	got := apiLeaks("pub", pkg)
	want := []string{
		"pub: A: example.com/m/internal/x.Hidden",
		"pub: E.Get: example.com/m/internal/x.Hidden",
		"pub: L: example.com/m/internal/x.Hidden",
		"pub: V: example.com/m/internal/x.Hidden",
	}
	if !slices.Equal(got, want) {
		t.Errorf("apiLeaks = %q, want %q", got, want)
	}
}
