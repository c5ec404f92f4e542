package chain

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// This file decides whether a DAG chain file is read as OCC's, and holds
// OCC's own reading of what chainrun's format would refuse: a file OCC
// wrote means what OCC runs it as (with a warning), while a file in
// chainrun's own format keeps its stricter rules.

// chainrunOnlyKeys are top-level keys OCC's format has no such thing as:
// a file that writes one is chainrun's own.
var chainrunOnlyKeys = []string{"tools", "connections", "dotenv", "handlers", "budget", "keep_going"}

// occOnlyKinds are step types only OCC's format has.
var occOnlyKinds = []string{string(KindRouter), string(KindEvaluator), string(KindGate), string(KindLoop),
	string(KindMerge), string(KindSubchain), string(KindDebate), string(KindWebhook), string(KindBrowser)}

// readsAsOCC reports whether a DAG chain's mapping is OCC's: a pipeline
// (chains:), a file that declares OCC's version: beside nothing OCC lacks,
// or one whose steps use a step type only OCC has.
func readsAsOCC(root *yaml.Node) bool {
	for _, k := range chainrunOnlyKeys {
		if keyNode(root, k) != nil {
			return false
		}
	}
	if keyNode(root, "chains") != nil || keyNode(root, "version") != nil {
		return true
	}
	steps := valueOf(root, "steps")
	if steps == nil || deref(steps).Kind != yaml.SequenceNode {
		return false
	}
	for _, s := range deref(steps).Content {
		s = deref(s)
		if s.Kind != yaml.MappingNode {
			continue
		}
		if t := valueOf(s, "type"); t != nil && slices.Contains(occOnlyKinds, deref(t).Value) {
			return true
		}
	}
	return false
}

// OCC reports whether the chain's file is read as OCC's (see
// docs/chain-format.md, Coming from OCC): its conditions, bare input
// references, context strategies, retries and env_var pre_tools then
// mean what OCC means.
func (c *Chain) OCC() bool { return c.occ }

// OneRequest reports whether the step sends one request per model when
// it has no retry: block (OCC's default, reference 004's "default: 1 = no
// retry"), rather than chainrun's retries of a transient failure.
func (s *Step) OneRequest() bool { return s.occ && s.Retry == nil }

// OCC reports whether the step belongs to a file read as OCC's.
func (s *Step) OCC() bool { return s.occ }

// occInputRefs rewrites, in an OCC file, a bare {name} that names an
// input and nothing else to {input.name}, as OCC resolves it, with a
// warning; chainrun's own format asks for {input.name}.
func (v *validator) occInputRef(s *Step, field string, r *Ref) {
	if !v.c.occ || r.Name == "input" || v.c.Input(r.Name) == nil {
		return
	}
	if (scope{v: v, s: s}).check(r.Name) == "" {
		return
	}
	v.d.warnf(s.At(field), "%s: %s: {%s} is read as {input.%s}, as OCC reads it (chainrun's own format writes {input.%s})",
		s.subject(), field, r.Dotted(), r.Name+dottedTail(r.Path), r.Name)
	r.Path = append([]string{r.Name}, r.Path...)
	r.Name = "input"
}

func dottedTail(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return "." + strings.Join(path, ".")
}

// occInputSource rewrites the bare input references of an expression's
// source as occInputRef does a template's.
func (v *validator) occInputSource(s *Step, field, src string) string {
	if !v.c.occ {
		return src
	}
	re := refForm()
	return re.ReplaceAllStringFunc(src, func(m string) string {
		g := re.FindStringSubmatch(m)
		name := g[2]
		head, rest, _ := strings.Cut(name, ".")
		r := &Ref{Name: head}
		if rest != "" {
			r.Path = strings.Split(rest, ".")
		}
		if head == "input" {
			return m // already {input.x}
		}
		v.occInputRef(s, field, r)
		if r.Name != "input" {
			return m
		}
		return strings.Replace(m, "{"+name, "{input."+name, 1)
	})
}

// Empty reports whether the chain is a file read as OCC's that holds no
// step: a workspace OCC's canvas saves, which loads (its output naming
// nothing yet) and which no run can run.
func (c *Chain) Empty() bool { return c.occ && !c.pipeline && c.Workflow == nil && len(c.Steps) == 0 }
