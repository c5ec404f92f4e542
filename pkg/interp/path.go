package interp

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/theory/jsonpath"
)

// PathRoots are the first names a transition's JSONPaths may start with.
func PathRoots() []string {
	return []string{"output", "arguments", "context", "workflow", "input"}
}

// ParsePath compiles a transition JSONPath and checks its root: one of
// $.output, $.arguments, $.context, $.workflow.input or $.input.
func ParsePath(raw string) (*jsonpath.Path, error) {
	p, err := jsonpath.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, &pathError{raw: raw, why: "is not a valid JSONPath: " + err.Error()}
	}
	root, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(raw), "$."), ".")
	root, _, _ = strings.Cut(root, "[")
	if !slices.Contains(PathRoots(), root) {
		return nil, &pathError{raw: raw, why: "starts nowhere a transition can read: use $.output, $.arguments, $.context, $.workflow.input or $.input" + spell.DidYouMean(root, PathRoots())}
	}
	return p, nil
}

// pathError is a JSONPath refused where it is written: raw as written,
// why what is wrong with it.
type pathError struct{ raw, why string }

func (e *pathError) Error() string { return `"` + e.raw + `" ` + e.why }
