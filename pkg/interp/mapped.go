package interp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/theory/jsonpath"
)

// Mapped is a value written in a chain file whose texts starting with $.
// are JSONPaths read when the step runs, and everything else literal:
// mcp-flowgate's request bodies and query values, a sub-workflow's
// use.inputs. Objects and lists are walked, so {a: {b: "$.context.x"}}
// resolves inside.
type Mapped struct {
	Literal any
	Path    *jsonpath.Path
	Raw     string
	Map     map[string]*Mapped
	List    []*Mapped
}

// CompileMapped compiles a written value. Its JSONPaths may read
// $.arguments, $.context, $.workflow.input and $.input (and, in a
// parallel executor's fan-out, $.branch): what exists before the step
// runs.
func CompileMapped(v any, fanned bool) (*Mapped, error) {
	switch x := NormalizeYAML(v).(type) {
	case string:
		if !strings.HasPrefix(x, "$.") && !strings.HasPrefix(x, "$[") {
			return &Mapped{Literal: x}, nil
		}
		p, err := parseInputPath(x, fanned)
		if err != nil {
			return nil, err
		}
		return &Mapped{Path: p, Raw: x}, nil
	case map[string]any:
		m := &Mapped{Map: make(map[string]*Mapped, len(x))}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e, err := CompileMapped(x[k], fanned)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			m.Map[k] = e
		}
		return m, nil
	case []any:
		m := &Mapped{List: make([]*Mapped, len(x))}
		for i, e := range x {
			c, err := CompileMapped(e, fanned)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i+1, err)
			}
			m.List[i] = c
		}
		return m, nil
	default:
		return &Mapped{Literal: x}, nil
	}
}

// parseInputPath compiles a JSONPath read before a step runs: $.output
// does not exist yet (it is read in a transition's output:).
func parseInputPath(raw string, fanned bool) (*jsonpath.Path, error) {
	root, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(raw), "$."), ".")
	root, _, _ = strings.Cut(root, "[")
	if fanned && root == "branch" {
		p, err := jsonpath.Parse(strings.TrimSpace(raw))
		if err != nil {
			return nil, &pathError{raw: raw, why: "is not a valid JSONPath: " + err.Error()}
		}
		return p, nil
	}
	if root == "output" {
		return nil, &pathError{raw: raw, why: "reads the executor's output, which does not exist before it runs: read $.output in the transition's output:"}
	}
	return ParsePath(raw)
}

// Resolve makes the value: each JSONPath replaced by what it selects in
// doc (nothing: null; several: a list), as mcp-flowgate resolves them.
func (m *Mapped) Resolve(doc map[string]any) any {
	switch {
	case m == nil:
		return nil
	case m.Path != nil:
		return Select(m.Path, doc)
	case m.Map != nil:
		out := make(map[string]any, len(m.Map))
		for k, e := range m.Map {
			out[k] = e.Resolve(doc)
		}
		return out
	case m.List != nil:
		out := make([]any, len(m.List))
		for i, e := range m.List {
			out[i] = e.Resolve(doc)
		}
		return out
	}
	return m.Literal
}

// Select is what a JSONPath reads in doc, as mcp-flowgate reads it: one
// value, nil when it selects nothing, a list when several. A [*] projects
// the array before it element by element, as mcp-flowgate's mappings do:
// always a list (one element: a list of one; empty: []), an element
// lacking the rest of the path null in its place, a [*] further on a
// list inside the list; not an array: nil.
func Select(p *jsonpath.Path, doc any) any {
	if s := p.String(); strings.Contains(s, "[*]") {
		return project(s, doc)
	}
	return selectNodes(p, doc)
}

// project reads a normalized path holding [*] in doc (Select).
func project(path string, doc any) any {
	head, rest, _ := strings.Cut(path, "[*]")
	p, err := jsonpath.Parse(head)
	if err != nil {
		return nil
	}
	list, ok := selectNodes(p, doc).([]any)
	if !ok {
		return nil
	}
	out := make([]any, len(list))
	for i, e := range list {
		if rest == "" {
			out[i] = e
			continue
		}
		if q, err := jsonpath.Parse("$" + rest); err == nil {
			out[i] = Select(q, e)
		}
	}
	return out
}

// selectNodes is a path's nodes in doc: nil, one value, or a list.
func selectNodes(p *jsonpath.Path, doc any) any {
	nodes := p.Select(doc)
	switch len(nodes) {
	case 0:
		return nil
	case 1:
		return nodes[0]
	}
	return []any(nodes)
}

// Paths lists the JSONPaths the value reads, for dry runs and messages.
func (m *Mapped) Paths() []string {
	var out []string
	var walk func(*Mapped)
	walk = func(m *Mapped) {
		switch {
		case m == nil:
		case m.Path != nil:
			out = append(out, m.Raw)
		case m.Map != nil:
			keys := make([]string, 0, len(m.Map))
			for k := range m.Map {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(m.Map[k])
			}
		default:
			for _, e := range m.List {
				walk(e)
			}
		}
	}
	walk(m)
	return out
}
