package wfcheck

import (
	"fmt"
	"path"
	"slices"
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
	"github.com/chainrun/chainrun/pkg/interp"
)

// constraintKinds are the kinds a slot's constraint: may declare.
var constraintKinds = []string{"path_allowlist", "subset_of"}

// compileConstraint reads a slot's constraint:, refusing what
// mcp-flowgate refuses when it loads the file
// (INVALID_CONSTRAINT_DECLARATION): an unknown kind, an empty allow:, a
// malformed glob, a subset_of that is no JSONPath.
func (v *checker) compileConstraint(where string, s *chain.Slot) {
	raw, declared := s.Raw["constraint"]
	if !declared {
		return
	}
	fail := func(format string, args ...any) {
		v.d.Errorf(s.Pos, "%sslot %q: constraint: %s", where, s.Name, fmt.Sprintf(format, args...))
	}
	m, ok := chain.NormalizeYAML(raw).(map[string]any)
	if !ok {
		fail("a constraint is a mapping of kinds (%s)", chain.OrList(constraintKinds))
		return
	}
	c := &chain.SlotConstraint{}
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
			fail("unknown constraint kind %q (%s)", kind, chain.OrList(constraintKinds))
			return
		}
	}
	s.Constraint = c
}

// globs reads path_allowlist's {allow, deny} into c; false when fail was
// called.
func (v *checker) globs(body any, c *chain.SlotConstraint, fail func(string, ...any)) bool {
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

// compileSlot resolves a typed slot's schema and its constraint.
func (v *checker) compileSlot(where string, s *chain.Slot) {
	if s.Raw == nil {
		return
	}
	v.compileConstraint(where, s)
	_, rs, problem := fileschema.ResolveSchema(schemaOf(s.Raw))
	if problem != "" {
		v.d.Errorf(s.Pos, "%sslot %q: %s", where, s.Name, problem)
		return
	}
	s.Schema = rs
}

// checkBlackboard compiles the workflow's typed slots and warns of output
// mappings that write a slot the blackboard does not declare.
func (v *checker) checkBlackboard() {
	w := v.c.Workflow
	prefix := "workflow " + chain.Quote(v.c.Name) + ": blackboard: "
	if b := w.Blackboard; b != nil {
		for _, name := range b.Order {
			v.compileSlot(prefix, b.Slots[name])
		}
	}
	for _, s := range w.States {
		for _, slot := range s.Slots {
			v.compileSlot("state "+chain.Quote(s.Name)+": slots: ", slot)
		}
		if w.Blackboard == nil {
			continue
		}
		check := func(owner string, out []*chain.OutputMapping) {
			for _, m := range out {
				if w.SlotFor(s, m.Key) == nil {
					v.d.Warnf(m.Pos, "%s: output writes %q, which the workflow's blackboard does not declare", owner, m.Key)
				}
			}
		}
		for _, t := range s.Transitions {
			check("transition "+chain.Quote(t.Name), t.Output)
		}
		if s.OnEnter != nil {
			check("state "+chain.Quote(s.Name)+" onEnter", s.OnEnter.Output)
		}
	}
}
