package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// edge is one arrow of a state diagram.
type edge struct{ from, to, label string }

// workflowEdges lists a workflow's arrows: named transitions labelled
// with their actor (deterministic ones with their executor's kind), and
// branches with their operator. End is "".
func workflowEdges(w *chain.Workflow) []edge {
	var out []edge
	for _, s := range w.States {
		for _, t := range s.Transitions {
			label := t.Name
			switch {
			case t.Actor != chain.ActorDeterministic:
				label += " [" + t.Actor + "]"
			case t.Executor != nil:
				label += " (" + string(t.Executor.Kind) + ")"
			}
			out = append(out, edge{s.Name, t.Target, label})
		}
		for _, b := range s.Branches {
			label := b.Operator
			if b.Operator != chain.OpDefault {
				label += " " + b.When
			}
			to := b.Goto
			if to == chain.End {
				to = ""
			}
			out = append(out, edge{s.Name, to, label})
		}
	}
	return out
}

// writeStateMermaid draws a workflow as a Mermaid stateDiagram-v2:
// decision points (agent or human) are highlighted, tasks show their kind.
func writeStateMermaid(w io.Writer, c *chain.Chain, out outcomes) error {
	wf := c.Workflow
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	label := func(s string) string { return strings.NewReplacer(`"`, "'", ":", " ").Replace(s) }
	for _, s := range wf.States {
		name := s.Name
		if s.Task != nil {
			name += " (" + string(s.Task.Kind) + " task)"
		}
		fmt.Fprintf(&b, "  state \"%s\" as %s\n", label(name), mermaidID(s.Name))
	}
	fmt.Fprintf(&b, "  [*] --> %s\n", mermaidID(wf.InitialState))
	for _, e := range workflowEdges(wf) {
		to := "[*]"
		if e.to != "" {
			to = mermaidID(e.to)
		}
		fmt.Fprintf(&b, "  %s --> %s : %s\n", mermaidID(e.from), to, label(e.label))
	}
	var decisions []string
	for _, s := range wf.States {
		if s.Terminal {
			fmt.Fprintf(&b, "  %s --> [*]\n", mermaidID(s.Name))
		}
		if !s.Terminal && s.Task == nil && !s.Automatic() {
			decisions = append(decisions, mermaidID(s.Name))
		}
	}
	if len(decisions) > 0 && len(out) == 0 {
		b.WriteString("  classDef decision fill:#fde68a,stroke:#b45309\n")
		fmt.Fprintf(&b, "  class %s decision\n", strings.Join(decisions, ","))
	}
	out.mermaidClasses(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeStateDOT draws a workflow for Graphviz: terminal states double
// circles, decision points shaded, the initial state entered from a dot.
func writeStateDOT(w io.Writer, c *chain.Chain, out outcomes) error {
	wf := c.Workflow
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  rankdir=TB;\n  node [shape=box, style=rounded];\n  __start [shape=point];\n", c.Name)
	for _, s := range wf.States {
		attrs := ""
		switch {
		case s.Terminal:
			attrs = ", shape=doublecircle"
		case s.Task == nil && !s.Automatic() && len(out) == 0:
			attrs = ", style=\"rounded,filled\", fillcolor=\"#fde68a\""
		}
		attrs += out.dotAttrs(s.Name)
		fmt.Fprintf(&b, "  %q [label=%q%s];\n", s.Name, s.Name, attrs)
	}
	fmt.Fprintf(&b, "  __start -> %q;\n", wf.InitialState)
	hasEnd := false
	for _, e := range workflowEdges(wf) {
		to := e.to
		if to == "" {
			to, hasEnd = "__end", true
		}
		fmt.Fprintf(&b, "  %q -> %q [label=%q];\n", e.from, to, e.label)
	}
	if hasEnd {
		b.WriteString("  __end [shape=doublecircle, label=\"end\"];\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
