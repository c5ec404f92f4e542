package authoring

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// checkNames adds to c's errors what its names would break once
// published: a workflow named other than its definitionId (the file
// would bring in a name nobody asked for), and a definitionId that a
// chain or workflow of the workflow file's directory, or below it,
// already has — the new file would make that name ambiguous and take the
// chain out of service (`run NAME` and a workflow step would find two).
// target is the file registry would write: the name it holds already (a
// publish again, refused by the write itself) is no collision. A
// candidate that does not load is not looked at further. file is the
// workflow's file ("" none).
func checkNames(c *draft, namesBelow func(root string) map[string][]string, file, target string) {
	if len(c.errs) > 0 {
		return
	}
	for _, w := range c.defines {
		if w != c.id {
			c.errs = append(c.errs, fmt.Sprintf("workflow %q is not named %s, the candidate's definitionId: %s.yaml holds the one workflow %s", w, c.id, c.id, c.id))
		}
	}
	if len(c.errs) > 0 || file == "" {
		return
	}
	base, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return
	}
	if namesBelow == nil {
		c.errs = append(c.errs, "the names already in use cannot be checked: this engine was given no catalog of chain files (run.WithLoader)")
		return
	}
	var in []string
	for _, f := range namesBelow(base)[c.id] {
		if f != target {
			rel, _ := filepath.Rel(base, f)
			in = append(in, filepath.ToSlash(rel))
		}
	}
	if len(in) > 0 {
		slices.Sort(in)
		c.errs = append(c.errs, fmt.Sprintf("a chain or workflow named %s is already in %s: publishing it would take that one out of service; choose another definitionId", c.id, strings.Join(in, ", ")))
	}
}
