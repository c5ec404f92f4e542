package chain

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
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

// chainrunOnlyKinds are step types OCC's format has no such thing as
// (OCC's StepType, mcp-server/src/types.ts: agent, router, gate,
// evaluator, transform, loop, merge, browser, subchain, debate, webhook,
// image_gen): a file with a step of one is chainrun's own.
var chainrunOnlyKinds = []string{string(KindCLI), string(KindShell), string(KindHTTP), string(KindFile),
	string(KindHuman), string(KindChain), string(KindNoop), string(KindREST), string(KindScript),
	string(KindParallel), string(KindWorkflow), string(KindMCP), string(KindPipeline),
	string(KindStructuralAnalysis), string(KindDryRun), string(KindRegistry)}

// chainrunOnlyStepKeys are step fields OCC's ChainStep has no such thing
// as: a cli or script step's command and environment, an http step's
// request, a parallel or pipeline step's parts, an mcp or workflow
// step's call, and chainrun's for_each, idempotent, continue_on_error
// and condition_key. A file whose step writes one is chainrun's own.
// (OCC's pre_tools write command, path, query and method too: those are
// a pre_tool's, not a step's, and are not looked at.)
var chainrunOnlyStepKeys = []string{"command", "run", "args", "env", "treatNonZeroAsFailure", "workingDirectory",
	"subject", "connection", "query", "path", "queue", "branches", "join", "max_concurrency",
	"max_recursion_depth", "on_branch_failure", "on_step_failure", "total_timeout_ms", "steps", "tool",
	"arguments", "map", "on_tool_error", "use", "input", "definition", "definitionId", "dir",
	"for_each", "idempotent", "continue_on_error", "condition_key", "max_turns"}

// readsAsOCC reports whether a DAG chain's mapping is OCC's. A file with
// a top-level key, a step type or a step field that only chainrun has is
// chainrun's own, whatever its version: says (chainrun's own format has
// version: too). Otherwise it is OCC's when it is a pipeline (chains:),
// declares version:, or has a step of a type only OCC has. A file that
// mixes a step type only OCC has with something only chainrun has is
// chainrun's own, with a warning: OCC could not run it, and chainrun's
// own format runs OCC's step types under its stricter rules.
func readsAsOCC(d *yamlpos.Diags, root *yaml.Node) bool {
	for _, k := range chainrunOnlyKeys {
		if yamlpos.KeyNode(root, k) != nil {
			return false
		}
	}
	var m occMarks
	m.scan(yamlpos.ValueOf(root, "steps"))
	if m.chainrun != "" {
		if m.occ != "" {
			d.Warnf(m.occAt, "%s, but %s, which OCC's format has not: the file is read in chainrun's own format (its stricter rules apply)", m.occ, m.chainrun)
		}
		return false
	}
	return yamlpos.KeyNode(root, "chains") != nil || yamlpos.KeyNode(root, "version") != nil || m.occ != ""
}

// occMarks are the first step of a type only OCC has, and the first step
// with something only chainrun has, each as messages name it.
type occMarks struct {
	occ, chainrun string
	occAt         Pos
}

// scan looks at every step of a steps: list, and at the steps written
// inside them (a loop's step_template, a pipeline's or a parallel
// step's own steps).
func (m *occMarks) scan(steps *yaml.Node) {
	if steps == nil || yamlpos.Deref(steps).Kind != yaml.SequenceNode {
		return
	}
	for _, s := range yamlpos.Deref(steps).Content {
		m.step(s, "")
	}
}

// step looks at one step and at the steps written inside it; who is how
// messages name a step without an id of its own (a step_template).
func (m *occMarks) step(s *yaml.Node, who string) {
	s = yamlpos.Deref(s)
	if s.Kind != yaml.MappingNode {
		return
	}
	if id := yamlpos.ValueOf(s, "id"); id != nil && yamlpos.Deref(id).Kind == yaml.ScalarNode {
		who = "step " + quote(yamlpos.Deref(id).Value)
	} else if who == "" {
		who = "a step"
	}
	if t := yamlpos.ValueOf(s, "type"); t != nil {
		switch v := yamlpos.Deref(t).Value; {
		case slices.Contains(occOnlyKinds, v) && m.occ == "":
			m.occ, m.occAt = who+" has OCC's type "+v, yamlpos.Of(t)
		case slices.Contains(chainrunOnlyKinds, v) && m.chainrun == "":
			m.chainrun = who + " has type " + v
		}
	}
	for i := 0; i+1 < len(s.Content) && m.chainrun == ""; i += 2 {
		if k := s.Content[i].Value; slices.Contains(chainrunOnlyStepKeys, k) {
			m.chainrun = who + " writes " + k + ":"
		}
	}
	if t := yamlpos.ValueOf(s, "step_template"); t != nil {
		m.step(t, who+" step_template")
	}
	m.scan(yamlpos.ValueOf(s, "steps"))
	m.scan(yamlpos.ValueOf(s, "branches"))
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
	v.d.Warnf(s.At(field), "%s: %s: {%s} is read as {input.%s}, as OCC reads it (chainrun's own format writes {input.%s})",
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
	re := interp.RefForm()
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
