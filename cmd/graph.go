package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render/graph"
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
	var out graph.Outcomes
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
	if opts.format == "dot" {
		return graph.DOT(opts.f.io.Out, graph.Of(c, out))
	}
	return graph.Mermaid(opts.f.io.Out, graph.Of(c, out))
}

// runOutcomes reads a saved run: the chain of its snapshot and what
// happened to each step or state.
func runOutcomes(f *factory, id string) (*chain.Chain, graph.Outcomes, error) {
	st, err := f.stateStore()
	if err != nil {
		return nil, nil, err
	}
	saved, err := st.Summary(id)
	if err != nil {
		return nil, nil, err
	}
	// the picture needs the shape only: read the snapshot leniently
	c, err := saved.Chain(chain.Options{LenientVariables: true}, false)
	if err != nil {
		return nil, nil, err
	}
	return c, graph.FromRun(c, saved), nil
}
