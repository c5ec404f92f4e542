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
	src, top, err := openSources(a.PathJail(path, false, base), base, p)
	if err != nil {
		return run.Outcome{}, err
	}
	defer src.close()
	if len(extract) == 0 {
		extract = []string{"functions", "classes", "exports"}
	}
	fi, err := src.stat(top)
	if err != nil {
		return run.Outcome{}, src.statError(err, p)
	}
	files := []string{top}
	if fi.IsDir() {
		files = src.sourceFiles(top)
	}
	var b strings.Builder
	for _, f := range files {
		name := p
		if rel, err := filepath.Rel(top, f); err == nil && fi.IsDir() {
			name = rel
		}
		if section := outline(src, f, name, extract); section != "" {
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

// sources is where an ast_parse reads: the file system as it is, or,
// when the path must stay under a directory (a decision's arguments may
// have chosen it), that directory as an os.Root, so that neither ".."
// nor a symbolic link met on the path, in the walk or at a file leads
// out of it.
type sources struct {
	root *os.Root // nil: the file system as it is
	jail string
}

// openSources opens where p (absolute, or relative to base) is read and
// gives its name there; a p that leaves jail by its shape is refused.
func openSources(jail, base, p string) (*sources, string, error) {
	if jail == "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		return &sources{}, p, nil
	}
	rel, err := run.JailRel(jail, base, p)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(jail)
	if err != nil {
		return nil, "", run.Permanent(fmt.Errorf("ast_parse: the step's directory is unusable: %w", unwrapPath(err)))
	}
	return &sources{root: root, jail: jail}, rel, nil
}

func (s *sources) close() {
	if s.root != nil {
		s.root.Close()
	}
}

func (s *sources) stat(name string) (fs.FileInfo, error) {
	if s.root == nil {
		return os.Stat(name)
	}
	return s.root.Stat(name)
}

func (s *sources) read(name string) ([]byte, error) {
	if s.root == nil {
		return fsutil.ReadRegular(name, astMaxFile)
	}
	return fsutil.ReadRegularIn(s.root, name, astMaxFile)
}

// statError words a failed stat of p: inside a jail as pkg/run/confine
// words it (a link that leads out is the built-in tools' refusal).
func (s *sources) statError(err error, p string) error {
	if s.root != nil {
		return run.JailError(err, p, s.jail)
	}
	return run.Permanent(fmt.Errorf("ast_parse: cannot read %s: %w", p, unwrapPath(err)))
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// sourceFiles are the source files under dir that ast_parse reads, in
// path order, at most astMaxFiles. A walk does not follow links to
// directories; inside a root, a link to a file outside is refused when
// it is read.
func (s *sources) sourceFiles(dir string) []string {
	var out []string
	visit := func(p string, d fs.DirEntry, err error) error {
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
	}
	if s.root == nil {
		_ = filepath.WalkDir(dir, visit)
		return out
	}
	_ = fs.WalkDir(s.root.FS(), filepath.ToSlash(dir), func(p string, d fs.DirEntry, err error) error {
		return visit(filepath.FromSlash(p), d, err)
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
func outline(s *sources, file, name string, extract []string) string {
	src, err := s.read(file)
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
