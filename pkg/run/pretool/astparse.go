package pretool

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// astLimits bound what an ast_parse pre_tool reads and gives: so many
// source files, each so large, and so much text in all.
const (
	astMaxFiles = 200
	astMaxFile  = 1 << 20
	astMaxText  = 50_000
)

// astSkipDirs are directories an ast_parse of a directory does not enter:
// dependencies, builds and caches, not the project's code.
var astSkipDirs = []string{"node_modules", "vendor", "dist", "build", "target", "__pycache__", "testdata"}

// astParse is an ast_parse pre_tool: the outline of the code at path (a
// file, or every source file under a directory), as markdown: per file,
// the functions, classes, types, imports and exports asked for. Go is
// read with go/parser (signatures as gofmt prints them); TypeScript,
// JavaScript and Python by their declaration lines.
func astParse(a *run.Attempt, path *chain.Template, extract []string) (run.Outcome, error) {
	p, err := a.Render(path)
	if err != nil {
		return run.Outcome{}, err
	}
	base, err := a.Dir(a.Step().C().Cwd)
	if err != nil {
		return run.Outcome{}, err
	}
	root := p
	if !filepath.IsAbs(root) {
		root = filepath.Join(base, p)
	}
	if jail := a.Jail(); jail != "" {
		if _, err := run.JailRel(jail, base, p); err != nil {
			return run.Outcome{}, err
		}
	}
	if len(extract) == 0 {
		extract = []string{"functions", "classes", "exports"}
	}
	fi, err := os.Stat(root)
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("ast_parse: cannot read %s: %w", p, unwrapPath(err)))
	}
	files := []string{root}
	if fi.IsDir() {
		files = sourceFiles(root)
	}
	var b strings.Builder
	for _, f := range files {
		name := p
		if rel, err := filepath.Rel(root, f); err == nil && fi.IsDir() {
			name = rel
		}
		if section := outline(f, name, extract); section != "" {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(section)
		}
		if b.Len() > astMaxText {
			b.WriteString("\n[truncated]")
			break
		}
	}
	if b.Len() == 0 {
		return run.Outcome{Value: interp.Value{Text: fmt.Sprintf("(no %s found in %s)", strings.Join(extract, ", "), p)}}, nil
	}
	return run.Outcome{Value: interp.Value{Text: b.String()}}, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// sourceFiles are the source files under dir that ast_parse reads, in
// path order, at most astMaxFiles.
func sourceFiles(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || slices.Contains(astSkipDirs, d.Name())) {
				return filepath.SkipDir
			}
			return nil
		}
		if language(p) != "" && len(out) < astMaxFiles {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func language(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".go":
		return "go"
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs":
		return "js"
	case ".py":
		return "py"
	}
	return ""
}

// outline is one file's section, "" when it holds none of what is asked.
func outline(file, name string, extract []string) string {
	src, err := fsutil.ReadRegular(file, astMaxFile)
	if err != nil {
		return ""
	}
	var found map[string][]string
	switch language(file) {
	case "go":
		found = goOutline(src)
	case "js":
		found = scanOutline(src, jsDecls())
	case "py":
		found = scanOutline(src, pyDecls())
	default:
		return ""
	}
	var b strings.Builder
	for _, e := range extract {
		if len(found[e]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s%s (%d)\n%s", strings.ToUpper(e[:1]), e[1:], len(found[e]), strings.Join(found[e], "\n"))
	}
	if b.Len() == 0 {
		return ""
	}
	return "## " + name + b.String()
}

// goOutline reads a Go file with go/parser: functions and methods as
// their signatures, types, imports, and the exported names.
func goOutline(src []byte) map[string][]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	for _, im := range f.Imports {
		out["imports"] = append(out["imports"], im.Path.Value)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			sig := *d
			sig.Body, sig.Doc = nil, nil
			var b bytes.Buffer
			_ = printer.Fprint(&b, fset, &sig)
			out["functions"] = append(out["functions"], b.String())
			if d.Name.IsExported() && d.Recv == nil {
				out["exports"] = append(out["exports"], "func "+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch s := sp.(type) {
				case *ast.TypeSpec:
					kind := "type"
					switch s.Type.(type) {
					case *ast.StructType:
						kind = "struct"
					case *ast.InterfaceType:
						kind = "interface"
					}
					out["types"] = append(out["types"], "type "+s.Name.Name+" "+kind)
					if s.Name.IsExported() {
						out["exports"] = append(out["exports"], "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out["exports"] = append(out["exports"], d.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// A declaration pattern: what it lists, and the line it matches.
type declPattern struct {
	what string
	re   *regexp.Regexp
}

// jsDecls and pyDecls are compiled when a file is first outlined, not
// at every start of chainrun.
var jsDecls = sync.OnceValue(func() []declPattern {
	return []declPattern{
		{"functions", regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*\w+\s*(?:<[^>]*>)?\s*\([^)]*\)`)},
		{"functions", regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+\w+\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^)]*\)|\w+)\s*(?::\s*[^=]+)?=>`)},
		{"classes", regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+\w+(?:\s+extends\s+[\w.]+)?(?:\s+implements\s+[\w., ]+)?`)},
		{"types", regexp.MustCompile(`^\s*(?:export\s+)?(?:type|interface|enum)\s+\w+`)},
		{"imports", regexp.MustCompile(`^\s*import\s+.*(?:from\s+)?["'][^"']+["']`)},
		{"exports", regexp.MustCompile(`^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function|class|const|let|var|type|interface|enum)\s+\w+`)},
	}
})

var pyDecls = sync.OnceValue(func() []declPattern {
	return []declPattern{
		{"functions", regexp.MustCompile(`^\s*(?:async\s+)?def\s+\w+\s*\([^)]*\)?`)},
		{"classes", regexp.MustCompile(`^\s*class\s+\w+(?:\([^)]*\))?`)},
		{"imports", regexp.MustCompile(`^(?:from\s+\S+\s+)?import\s+.+`)},
		{"exports", regexp.MustCompile(`^(?:def|class)\s+[A-Za-z]\w*`)},
	}
})

// scanOutline lists a file's declaration lines by patterns, each line
// kept as far as its pattern reaches.
func scanOutline(src []byte, patterns []declPattern) map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(string(src), "\n") {
		for _, p := range patterns {
			if m := p.re.FindString(line); m != "" {
				out[p.what] = append(out[p.what], strings.TrimSpace(m))
			}
		}
	}
	return out
}
