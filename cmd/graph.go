package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
)

type graphOptions struct {
	f      *factory
	chain  string
	format string
	runID  string
}

func newGraphCmd(f *factory) *cobra.Command {
	opts := &graphOptions{f: f}
	cmd := &cobra.Command{
		Use:   "graph CHAIN | graph --run RUN_ID",
		Short: "Draw a chain (or a run, coloured by outcome) in Mermaid or DOT",
		Long: `Print a chain's steps and dependencies as a Mermaid flowchart (default) or
a Graphviz DOT graph. Steps are grouped by wave: wave 1 needs nothing,
wave n needs something of wave n-1. Waves are a picture of the graph; runs
start each step as soon as its own dependencies are done. A state workflow
is drawn as a state diagram, with each transition's actor.

With --run RUN_ID the chain is the run's snapshot, and each step (or state)
is coloured by what happened to it: succeeded green, failed red, skipped
grey, cached blue, not reached uncoloured; a workflow's current state is
outlined.`,
		Example: `  chainrun graph deploy
  chainrun graph deploy --format dot | dot -Tsvg > deploy.svg
  chainrun graph --run 20261122-190352-417-739eaf`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.runID != "" {
				return exactArgs(0, "no chain with --run (the run names its chain)")(cmd, args)
			}
			return exactArgs(1, "one chain name or file")(cmd, args)
		},
		ValidArgsFunction: completeChainNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.chain = args[0]
			}
			return runGraph(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "mermaid", "mermaid or dot")
	cmd.Flags().StringVar(&opts.runID, "run", "", "draw a saved run, coloured by outcome")
	_ = cmd.RegisterFlagCompletionFunc("run", completeRunIDs(f))
	return cmd
}

func runGraph(opts *graphOptions) error {
	if opts.format != "mermaid" && opts.format != "dot" {
		return usagef("--format %q: use mermaid or dot", opts.format)
	}
	var c *chain.Chain
	var out outcomes
	if opts.runID != "" {
		var err error
		if c, out, err = runOutcomes(opts.f, opts.runID); err != nil {
			return err
		}
	} else {
		l, err := opts.f.resolveChain(opts.chain)
		if err != nil {
			return err
		}
		c = l.Chain
		if named := l.Named(opts.chain); named != nil {
			c = named
		}
	}
	switch {
	case c.Workflow != nil && opts.format == "dot":
		return writeStateDOT(opts.f.io.Out, c, out)
	case c.Workflow != nil:
		return writeStateMermaid(opts.f.io.Out, c, out)
	case opts.format == "dot":
		return writeDOT(opts.f.io.Out, c, out)
	}
	return writeMermaid(opts.f.io.Out, c, out)
}

func nodeLabel(s *chain.Step) string {
	label := s.ID
	if s.Label != "" && s.Label != s.ID {
		label = s.Label
	}
	return fmt.Sprintf("%s (%s)", label, s.Kind)
}

// mermaidID makes a node id Mermaid accepts: letters and digits stay, and
// every other byte ('-', '_') is written as _xx, so distinct step ids never
// share a node.
func mermaidID(id string) string {
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

func writeMermaid(w io.Writer, c *chain.Chain, out outcomes) error {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	for i, wave := range c.Graph().Waves() {
		fmt.Fprintf(&b, "  subgraph wave%d [\"wave %d\"]\n", i+1, i+1)
		for _, id := range wave {
			s := c.Step(id)
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", mermaidID(id), strings.ReplaceAll(nodeLabel(s), `"`, "#quot;"))
		}
		b.WriteString("  end\n")
	}
	for _, s := range c.Steps {
		for _, d := range s.DependsOn {
			arrow := "-->"
			if s.Condition != "" {
				arrow = "-.->"
			}
			fmt.Fprintf(&b, "  %s %s %s\n", mermaidID(d), arrow, mermaidID(s.ID))
		}
	}
	out.mermaidClasses(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeDOT(w io.Writer, c *chain.Chain, out outcomes) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  rankdir=TB;\n  node [shape=box];\n", c.Name)
	for i, wave := range c.Graph().Waves() {
		fmt.Fprintf(&b, "  subgraph wave%d {\n    rank=same;\n", i+1)
		for _, id := range wave {
			fmt.Fprintf(&b, "    %q [label=%q%s];\n", id, nodeLabel(c.Step(id)), out.dotAttrs(id))
		}
		b.WriteString("  }\n")
	}
	for _, s := range c.Steps {
		for _, d := range s.DependsOn {
			style := ""
			if s.Condition != "" {
				style = " [style=dashed]"
			}
			fmt.Fprintf(&b, "  %q -> %q%s;\n", d, s.ID, style)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
