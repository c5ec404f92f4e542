package run

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// attemptKinds are the files whose step kinds run through Attempt only:
// they name none of the execution's types and use none of its unexported
// members, so they can move to a package of their own. Each step of the
// conversion adds its kinds' files here.
var attemptKinds = []string{
	"body_noop.go", "body_human.go", "body_file.go",
	"body_transform.go", "transform_ops.go",
	"body_http.go", "body_rest.go", "body_cli.go", "shell_feed.go", "body_script.go", "body_gate.go", "body_mcp.go", "body_webhook.go",
	"body_router.go", "body_evaluator.go",
	"agent.go", "answer.go", "toolloop.go",
	"body_occ.go", "body_structural.go",
	"body_parallel.go", "body_pipeline.go", "body_call.go", "body_workflow.go",
	"body_authoring.go", "authoring_names.go", "publish_file.go",
}

// insides are the engine's types a kind must not name.
var insides = map[string]bool{
	"execution": true, "scope": true, "tries": true, "kind": true, "register": true,
	"outcome": true, "permanentError": true, "store": true, "planView": true, "flow": true,
}

// TestKindsUseAttemptOnly checks, from the sources, that the converted
// kinds' files reach the execution only through Attempt's exported methods.
func TestKindsUseAttemptOnly(t *testing.T) {
	fset := token.NewFileSet()
	members := map[string]bool{} // unexported members of the execution's types
	parsed := parseSources(t, fset)
	for _, f := range parsed {
		collectMembers(f, members)
	}
	for _, name := range attemptKinds {
		f := parsed[name]
		if f == nil {
			t.Fatalf("%s: not found", name)
		}
		var bad []string
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if insides[n.Name] {
					bad = append(bad, fset.Position(n.Pos()).String()+": names "+n.Name)
				}
			case *ast.SelectorExpr:
				if members[n.Sel.Name] {
					bad = append(bad, fset.Position(n.Pos()).String()+": uses ."+n.Sel.Name)
				}
			}
			return true
		})
		sort.Strings(bad)
		for _, b := range bad {
			t.Error(b)
		}
	}
}

// collectMembers adds the unexported fields and methods of execution,
// scope, Local, tries, the plan views and Attempt declared in f.
func collectMembers(f *ast.File, into map[string]bool) {
	owners := map[string]bool{"execution": true, "scope": true, "Local": true, "tries": true, "Attempt": true, "planView": true, "PlanView": true}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && owners[receiverName(d.Recv.List[0].Type)] && !ast.IsExported(d.Name.Name) {
				into[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !owners[ts.Name.Name] {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						if !ast.IsExported(n.Name) {
							into[n.Name] = true
						}
					}
				}
			}
		}
	}
}

// receiverName is the type name of a method's receiver.
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestAttemptKindsListed keeps the list honest: each file exists.
func TestAttemptKindsListed(t *testing.T) {
	for _, name := range attemptKinds {
		if _, err := os.Stat(name); err != nil {
			t.Error(err)
		}
	}
}

// TestKindsUseExportedHelpers checks, from the sources, that the kinds'
// files call no unexported function, type, variable or constant of the
// engine's files: a helper the kinds share is an exported core function,
// so that a kind that moves to a package of its own still finds it.
func TestKindsUseExportedHelpers(t *testing.T) {
	fset := token.NewFileSet()
	listed := map[string]bool{}
	for _, name := range attemptKinds {
		listed[name] = true
	}
	core := map[string]string{} // unexported package-level names of the engine's files
	parsed := parseSources(t, fset)
	for name, f := range parsed {
		if listed[name] {
			continue
		}
		for _, id := range packageNames(f) {
			if !ast.IsExported(id) && id != "_" {
				core[id] = name
			}
		}
	}
	for _, name := range attemptKinds {
		var bad []string
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				// the name after the dot is a field, a method or another
				// package's
				ast.Inspect(n.X, visit)
				return false
			case *ast.KeyValueExpr:
				// a struct literal's field name is no reference
				if _, ok := n.Key.(*ast.Ident); ok {
					ast.Inspect(n.Value, visit)
					return false
				}
			case *ast.Ident:
				// Obj is set for a name this file declares
				if from, ok := core[n.Name]; ok && n.Obj == nil {
					bad = append(bad, fmt.Sprintf("%s: uses %s of %s", fset.Position(n.Pos()), n.Name, from))
				}
			}
			return true
		}
		ast.Inspect(parsed[name], visit)
		sort.Strings(bad)
		for _, b := range bad {
			t.Error(b)
		}
	}
}

// packageNames are the names f declares at package level, methods left
// out.
func packageNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// parseSources parses the package's files, its tests left out, by name.
func parseSources(t *testing.T, fset *token.FileSet) map[string]*ast.File {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	parsed := map[string]*ast.File{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
	}
	return parsed
}
