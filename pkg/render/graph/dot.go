package graph

import (
	"fmt"
	"io"
	"strings"
)

// The shade of a decision point in a chain's plain picture.
const (
	decisionFill   = "#fde68a"
	decisionStroke = "#b45309"
)

// DOT prints g for Graphviz: steps boxed and ranked by wave, or a
// workflow's states with terminal ones as double circles and the initial
// one entered from a point.
func DOT(w io.Writer, g *Graph) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  rankdir=TB;\n", g.Name)
	if g.States {
		b.WriteString("  node [shape=box, style=rounded];\n  __start [shape=point];\n")
		for _, n := range g.Nodes {
			dotNode(&b, "  ", n, g.Outcomes)
		}
		fmt.Fprintf(&b, "  __start -> %q;\n", g.Initial)
	} else {
		b.WriteString("  node [shape=box];\n")
		for _, grp := range g.Groups {
			fmt.Fprintf(&b, "  subgraph %s {\n    rank=same;\n", grp.Name)
			for _, n := range grp.Nodes {
				dotNode(&b, "    ", n, g.Outcomes)
			}
			b.WriteString("  }\n")
		}
	}
	hasEnd := false
	for _, e := range g.Edges {
		to := e.To
		if to == "" {
			to, hasEnd = "__end", true
		}
		var attrs []string
		if e.Label != "" {
			attrs = append(attrs, fmt.Sprintf("label=%q", e.Label))
		}
		if e.Dashed {
			attrs = append(attrs, "style=dashed")
		}
		fmt.Fprintf(&b, "  %q -> %q", e.From, to)
		if len(attrs) > 0 {
			b.WriteString(" [" + strings.Join(attrs, ", ") + "]")
		}
		b.WriteString(";\n")
	}
	if hasEnd {
		b.WriteString("  __end [shape=doublecircle, label=\"end\"];\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotNode writes one node: its shape and shade, and its outcome's colour.
func dotNode(b *strings.Builder, indent string, n Node, out Outcomes) {
	attrs := ""
	switch {
	case n.Terminal:
		attrs = ", shape=doublecircle"
	case n.Decision && len(out) == 0:
		attrs = fmt.Sprintf(", style=\"rounded,filled\", fillcolor=%q", decisionFill)
	}
	attrs += out.dotAttrs(n.ID)
	fmt.Fprintf(b, "%s%q [label=%q%s];\n", indent, n.ID, n.Label, attrs)
}
