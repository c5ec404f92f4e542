package graph

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
)

// outcomeMarks are the marks a run's outcomes give nodes in the text
// form, the progress lines' glyphs.
var outcomeMarks = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"succeeded":      "✓",
		"failed":         "✗",
		"cancelled":      "○",
		"skipped":        "⊘",
		"cached":         "↺",
		"current":        "▶",
		"current-failed": "✗",
	}
})

// Text prints g for a terminal: a chain wave by wave, each step with its
// kind and the steps it waits for; a workflow state by state, each with
// where its transitions and branches lead. With a run's outcomes each
// node is marked as the progress lines mark steps (✓ ✗ ○ ⊘ ↺, ▶ where a
// workflow stands). Lines carry no trailing spaces.
func Text(w io.Writer, g *Graph) error {
	var b strings.Builder
	if g.States {
		textStates(&b, g)
	} else {
		textWaves(&b, g)
	}
	_, err := io.WriteString(w, trimLines(b.String()))
	return err
}

// textWaves lists a chain's steps by wave.
func textWaves(b *strings.Builder, g *Graph) {
	steps := 0
	for _, grp := range g.Groups {
		steps += len(grp.Nodes)
	}
	fmt.Fprintf(b, "%s: %s in %s (a step starts as soon as the steps it needs are done)\n",
		g.Name, plural(steps, "step"), plural(len(g.Groups), "wave"))
	needs := map[string][]string{}
	conditional := map[string]bool{}
	for _, e := range g.Edges {
		needs[e.To] = append(needs[e.To], e.From)
		conditional[e.To] = conditional[e.To] || e.Dashed
	}
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	for _, grp := range g.Groups {
		fmt.Fprintf(tw, "%s\t\n", grp.Label) // a cell, so every wave aligns
		for _, n := range grp.Nodes {
			after := ""
			if len(needs[n.ID]) > 0 {
				after = "after " + strings.Join(needs[n.ID], ", ")
			}
			if conditional[n.ID] {
				after += " (if its condition holds)"
			}
			name := n.ID + " (" + n.Kind + ")"
			if n.Title != "" {
				name = n.ID + ": " + n.Title + " (" + n.Kind + ")"
			}
			fmt.Fprintf(tw, "  %s%s\t%s\n", g.mark(n.ID), name, after)
		}
	}
	_ = tw.Flush()
}

// textStates lists a workflow's states, each with its ways out.
func textStates(b *strings.Builder, g *Graph) {
	fmt.Fprintf(b, "%s: a state workflow, starting at %s\n", g.Name, g.Initial)
	out := map[string][]Edge{}
	for _, e := range g.Edges {
		out[e.From] = append(out[e.From], e)
	}
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	for _, n := range g.Nodes {
		var notes []string
		switch {
		case n.Terminal:
			notes = append(notes, "terminal")
		case n.Decision:
			notes = append(notes, "decision")
		}
		if n.Task != "" {
			notes = append(notes, n.Task+" task")
		}
		note := ""
		if len(notes) > 0 {
			note = " (" + strings.Join(notes, ", ") + ")"
		}
		fmt.Fprintf(tw, "%s%s%s\n", g.mark(n.ID), n.Label, note)
		for _, e := range out[n.ID] {
			to := e.To
			if to == "" {
				to = "end"
			}
			fmt.Fprintf(tw, "  → %s\t%s\n", to, e.Label)
		}
	}
	_ = tw.Flush()
}

// mark is a node's outcome mark and a space, when the picture is a
// run's; two spaces for a node the run did not reach, so names align.
func (g *Graph) mark(id string) string {
	if len(g.Outcomes) == 0 {
		return ""
	}
	if m, ok := outcomeMarks()[g.Outcomes[id]]; ok {
		return m + " "
	}
	return "  "
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// trimLines drops the spaces tabwriter leaves at the ends of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Formats are what a picture can be printed as: text for a terminal,
// Mermaid and Graphviz DOT for documents.
var Formats = []string{"text", "mermaid", "dot"}

// Print prints g in format, one of Formats.
func Print(w io.Writer, format string, g *Graph) error {
	switch format {
	case "text":
		return Text(w, g)
	case "dot":
		return DOT(w, g)
	}
	return Mermaid(w, g)
}
