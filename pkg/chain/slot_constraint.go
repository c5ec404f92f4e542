package chain

import (
	"fmt"
	"path"
	"slices"
	"sort"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/theory/jsonpath"
)

// SlotConstraint is what a blackboard slot's constraint: declares
// (mcp-flowgate's SPEC §28), checked whenever a transition writes the
// slot: path_allowlist, an array of paths each matching an allow glob
// and no deny glob; subset_of, an array every element of which is in the
// array a JSONPath reads. Several kinds must all hold.
type SlotConstraint struct {
	// Allowlist is set when path_allowlist is declared; Allow and Deny
	// are its globs (** spans directories).
	Allowlist   bool
	Allow, Deny []string
	// SubsetOf reads the reference array; SubsetOfRaw is the path as
	// written.
	SubsetOf    *jsonpath.Path
	SubsetOfRaw string
}

// constraintKinds are the kinds a slot's constraint: may declare.
var constraintKinds = []string{"path_allowlist", "subset_of"}

// compileConstraint reads a slot's constraint:, refusing what
// mcp-flowgate refuses when it loads the file
// (INVALID_CONSTRAINT_DECLARATION): an unknown kind, an empty allow:, a
// malformed glob, a subset_of that is no JSONPath.
func (v *validator) compileConstraint(where string, s *Slot) {
	raw, declared := s.Raw["constraint"]
	if !declared {
		return
	}
	fail := func(format string, args ...any) {
		v.d.Errorf(s.Pos, "%sslot %q: constraint: %s", where, s.Name, fmt.Sprintf(format, args...))
	}
	m, ok := NormalizeYAML(raw).(map[string]any)
	if !ok {
		fail("a constraint is a mapping of kinds (%s)", OrList(constraintKinds))
		return
	}
	c := &SlotConstraint{}
	kinds := make([]string, 0, len(m))
	for k := range m {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		switch body := m[kind]; kind {
		case "path_allowlist":
			c.Allowlist = true
			if !v.globs(body, c, fail) {
				return
			}
		case "subset_of":
			text, ok := body.(string)
			if !ok {
				fail("subset_of must be a string: the JSONPath ($.context.KEY) of the reference array")
				return
			}
			p, err := interp.ParsePath(text)
			if err != nil {
				fail("subset_of: %v", err)
				return
			}
			c.SubsetOf, c.SubsetOfRaw = p, text
		default:
			fail("unknown constraint kind %q (%s)", kind, OrList(constraintKinds))
			return
		}
	}
	s.Constraint = c
}

// globs reads path_allowlist's {allow, deny} into c; false when fail was
// called.
func (v *validator) globs(body any, c *SlotConstraint, fail func(string, ...any)) bool {
	pl, ok := body.(map[string]any)
	if !ok {
		fail("path_allowlist is {allow: [GLOB...], deny: [GLOB...]}")
		return false
	}
	for k := range pl {
		if k != "allow" && k != "deny" {
			fail("path_allowlist has allow and deny, not %q", k)
			return false
		}
	}
	read := func(key string) ([]string, bool) {
		items, ok := pl[key].([]any)
		if pl[key] != nil && !ok {
			fail("path_allowlist: %s is a list of globs", key)
			return nil, false
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			g, ok := it.(string)
			if !ok {
				fail("path_allowlist: %s: %v is not a glob", key, it)
				return nil, false
			}
			if _, err := path.Match(g, ""); err != nil {
				fail("path_allowlist: %s: %q is not a valid glob (%v)", key, g, err)
				return nil, false
			}
			out = append(out, g)
		}
		return out, true
	}
	var ok1, ok2 bool
	c.Allow, ok1 = read("allow")
	c.Deny, ok2 = read("deny")
	if !ok1 || !ok2 {
		return false
	}
	if len(c.Allow) == 0 {
		fail("path_allowlist: an empty allow: allows nothing (name the globs a path may match)")
		return false
	}
	return true
}

// schemaOf is a slot's declaration without the keys that are not JSON
// Schema (scope, default, constraint).
func schemaOf(raw map[string]any) map[string]any {
	out := make(map[string]any, len(raw))
	for k, x := range raw {
		if !slices.Contains([]string{"scope", "default", "constraint"}, k) {
			out[k] = x
		}
	}
	return out
}
