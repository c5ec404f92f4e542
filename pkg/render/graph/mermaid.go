package graph

import (
	"fmt"
	"io"
	"strings"
)

// Mermaid prints g as a Mermaid flowchart (steps in a subgraph per wave)
// or, for a workflow, a stateDiagram-v2.
func Mermaid(w io.Writer, g *Graph) error {
	var b strings.Builder
	if g.States {
		b.WriteString("stateDiagram-v2\n")
		for _, n := range g.Nodes {
			label := n.Label
			if n.Task != "" {
				label += " (" + n.Task + " task)"
			}
			fmt.Fprintf(&b, "  state \"%s\" as %s\n", stateText(label), MermaidID(n.ID))
		}
		fmt.Fprintf(&b, "  [*] --> %s\n", MermaidID(g.Initial))
	} else {
		b.WriteString("flowchart TD\n")
		for _, grp := range g.Groups {
			fmt.Fprintf(&b, "  subgraph %s [\"%s\"]\n", grp.Name, grp.Label)
			for _, n := range grp.Nodes {
				fmt.Fprintf(&b, "    %s[\"%s\"]\n", MermaidID(n.ID), strings.ReplaceAll(n.Label, `"`, "#quot;"))
			}
			b.WriteString("  end\n")
		}
	}
	for _, e := range g.Edges {
		arrow, to := "-->", "[*]"
		if e.Dashed {
			arrow = "-.->"
		}
		if e.To != "" {
			to = MermaidID(e.To)
		}
		fmt.Fprintf(&b, "  %s %s %s", MermaidID(e.From), arrow, to)
		if e.Label != "" {
			b.WriteString(" : " + stateText(e.Label))
		}
		b.WriteString("\n")
	}
	var decisions []string
	for _, n := range g.Nodes {
		if n.Terminal {
			fmt.Fprintf(&b, "  %s --> [*]\n", MermaidID(n.ID))
		}
		if n.Decision {
			decisions = append(decisions, MermaidID(n.ID))
		}
	}
	if len(decisions) > 0 && len(g.Outcomes) == 0 {
		fmt.Fprintf(&b, "  classDef decision fill:%s,stroke:%s\n", decisionFill, decisionStroke)
		fmt.Fprintf(&b, "  class %s decision\n", strings.Join(decisions, ","))
	}
	g.Outcomes.mermaidClasses(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// stateText makes a state diagram's label safe: no quotes, no colons.
func stateText(s string) string { return strings.NewReplacer(`"`, "'", ":", " ").Replace(s) }

// MermaidID makes a node id Mermaid accepts: letters and digits stay, and
// every other byte ('-', '_') is written as _xx, so distinct step ids never
// share a node.
func MermaidID(id string) string {
	var b strings.Builder
	b.WriteString("s_")
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "_%02x", c)
	}
	return b.String()
}
