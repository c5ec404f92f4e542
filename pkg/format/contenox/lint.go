package contenox

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The newest contenox refuses, when a chain loads, what can never work as
// written (contenox/contenox internal/kernel/taskengine/chainlint.go): a
// branch on a result its handler never gives, a template reading a
// variable nothing sets, an {{edge_count:…}} of an edge no run takes.
// Earlier contenox ran such chains (the branch untaken, "<no value>", a
// count of 0), so chainrun reads them as those did and warns, naming
// what will happen: never refusing what the peer's format accepted.

// lintTask keeps one task's checks for when every task is known.
func (tc *taskChain) lintTask(s *chain.State, k *taskKeys, at func(string) yamlpos.Pos, prefix string) {
	tc.lints = append(tc.lints, func() {
		h := HandlerOf(s.Task)
		if h == nil {
			return
		}
		tc.lintResults(s, h, k, prefix)
		for _, f := range []struct {
			field, text string
			t           *template.Template
		}{{"system_instruction", k.SystemInstruction, nil}, {"prompt_template", k.PromptTemplate, h.Prompt},
			{"print", k.Print, h.Print}, {"output_template", k.OutputTemplate, h.Output}} {
			tc.lintMacros(at(f.field), prefix+f.field+": ", f.text)
			// output_template reads the tool's answer, not the chain's
			// variables
			if f.t != nil && f.field != "output_template" {
				tc.lintFields(at(f.field), prefix+f.field, f.t)
			}
		}
		if h.Name == HandlerExecute && k.PromptTemplate != "" {
			tc.d.Warnf(at("prompt_template"), "%sprompt_template makes an execute_tool_calls task's input text, which holds no tool calls: the task runs none (its result is noop)", prefix)
		}
	})
}

// closedResults are the results a handler gives, when they are a fixed
// set; a failed task of any handler gives "failed".
func closedResults(h *Handler, k *taskKeys) []string {
	switch h.Name {
	case HandlerChat:
		return []string{ResultToolCall, ResultExecuted}
	case HandlerExecute:
		return []string{ResultToolsExecuted, ResultNoCallsFound, ResultNoop}
	case HandlerNoop:
		return []string{ResultNoop}
	case HandlerTools:
		if k.OutputTemplate == "" {
			return []string{ResultToolsExecuted}
		}
	}
	return nil
}

// lintResults warns at an equals branch on a result the task's handler
// never gives (reference 003's own words are warned of by
// warnReferenceResults).
func (tc *taskChain) lintResults(s *chain.State, h *Handler, k *taskKeys, prefix string) {
	results := closedResults(h, k)
	if results == nil {
		return
	}
	for _, b := range s.Branches {
		when := strings.TrimSpace(b.When)
		if b.Operator != chain.OpEquals || slices.Contains(results, when) || when == "failed" || referenceResults()[h.Name][when] != "" {
			continue
		}
		tc.d.Warnf(b.Pos, "%swhen %q is never the result of a %s task (it gives %s, or failed): this branch is not taken", prefix, b.When, h.Name, strings.Join(results, ", "))
	}
}

// edgeMacro and emptyVar are the macros lintMacros looks for, compiled
// on first use: only a contenox file is linted.
var (
	edgeMacro = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*edge_count:([^}]*)\}\}`) })
	emptyVar  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*var:\s*(\|[^}]*)?\}\}`) })
)

// lintMacros warns of an {{edge_count:a->b}} whose a or b is no task (it
// reads 0; a move into end is never read, as the run ends) and of a
// {{var:}} that names no variable.
func (tc *taskChain) lintMacros(at yamlpos.Pos, prefix, text string) {
	for _, m := range edgeMacro().FindAllStringSubmatch(text, -1) {
		from, to, _ := strings.Cut(m[1], "->")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		switch {
		case to == chain.End:
			tc.d.Warnf(at, "%s%s counts a move into end, which no task reads (the run has ended): it reads 0", prefix, m[0])
		case !tc.ids[from] || !tc.ids[to]:
			ghost := from
			if tc.ids[from] {
				ghost = to
			}
			tc.d.Warnf(at, "%s%s names %q, which is not a task of the chain: it reads 0", prefix, m[0], ghost)
		}
	}
	for _, m := range emptyVar().FindAllString(text, -1) {
		tc.d.Warnf(at, "%s%s names no variable: it reads its default, or nothing", prefix, m)
	}
}

// lintFields warns of a template's {{.NAME}} that no task, compose,
// input or engine variable sets: it renders "<no value>".
func (tc *taskChain) lintFields(at yamlpos.Pos, field string, t *template.Template) {
	known := tc.templateNames()
	seen := map[string]bool{}
	walkFields(t.Root, func(name string) {
		if known[name] || seen[name] {
			return
		}
		seen[name] = true
		tc.d.Warnf(at, "%s reads {{.%s}}, which no task, compose or the engine sets: it renders \"<no value>\"%s", field, name, spell.DidYouMean(name, interp.SortedKeys(known)))
	})
}

// templateNames are the variables a task chain's templates can read.
func (tc *taskChain) templateNames() map[string]bool {
	known := map[string]bool{InputVar: true, "previous_output": true, "last_error": true}
	for id := range tc.ids {
		for _, v := range []string{id, taskVar(id)} {
			known[v], known[v+"_error"] = true, true
		}
	}
	for _, s := range tc.c.Workflow.States {
		for _, b := range s.Branches {
			if b.Compose != nil {
				known[b.Compose.WithVar] = true
			}
		}
	}
	return known
}

// walkFields calls f with the first name of each {{.NAME…}} read of the
// template's top-level data; inside with and range, where dot is another
// value, only their pipelines are read.
func walkFields(n parse.Node, f func(string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkFields(c, f)
			}
		}
	case *parse.ActionNode:
		walkFields(n.Pipe, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkFields(c, f)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkFields(a, f)
		}
	case *parse.FieldNode:
		f(n.Ident[0])
	case *parse.IfNode:
		walkFields(n.Pipe, f)
		walkFields(n.List, f)
		walkFields(n.ElseList, f)
	case *parse.WithNode:
		walkFields(n.Pipe, f)
		walkFields(n.ElseList, f)
	case *parse.RangeNode:
		walkFields(n.Pipe, f)
		walkFields(n.ElseList, f)
	}
}
