package render

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportRules makes the doc.go rules of the render packages
// executable: no render package reads flags or configuration (cobra,
// pflag, viper) or reaches into cmd, and a view imports another view
// only where its doc.go says so.
func TestImportRules(t *testing.T) {
	const module = "github.com/chainrun/chainrun/"
	allowed := map[string][]string{ // view package → the views it may import
		"pkg/render/live":   {"pkg/render/progress"},
		"pkg/render/github": {"pkg/render/text"},
		"pkg/render/gantt":  {"pkg/render/graph"},
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Join("pkg/render", filepath.Dir(path)))
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			switch {
			case strings.HasPrefix(imp, "github.com/spf13/"):
				t.Errorf("%s imports %s: only cmd reads flags and configuration", path, imp)
			case strings.HasPrefix(imp, module+"cmd"):
				t.Errorf("%s imports %s: cmd wires the views, not the other way", path, imp)
			case strings.HasPrefix(imp, module+"pkg/render/"):
				view := strings.TrimPrefix(imp, module)
				if !strings.HasPrefix(pkg, view) && !slices.Contains(allowed[pkg], view) {
					t.Errorf("%s imports the view %s, which its doc.go does not allow", path, view)
				}
			case (pkg == "pkg/render/live/livetest" || pkg == "pkg/render/github/githubtest") && strings.HasPrefix(imp, module):
				t.Errorf("%s imports %s: %s imports nothing of this module", path, imp, filepath.Base(pkg))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
