package cmd

import (
	"github.com/spf13/cobra"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
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
		Short: "Draw a chain (or a run, coloured by outcome) as text, Mermaid or DOT",
		Long: `Print a chain's steps and dependencies: as text on a terminal, else as a
Mermaid flowchart; --format chooses text, mermaid or dot (Graphviz). Steps
are grouped by wave: wave 1 needs nothing, wave n needs something of wave
n-1 (a picture: a run starts each step once its own dependencies are
done). A state workflow is drawn as its states and transitions.

With --run RUN_ID the chain is the run's snapshot, each step (or state)
marked by what happened to it: succeeded green (✓ in text), failed red
(✗), cancelled orange (✗), skipped grey (⊘), cached blue (↺); a
workflow's current state is outlined (▶).`,
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
	cmd.Flags().StringVar(&opts.format, "format", "", "text (the default on a terminal), mermaid (the default elsewhere) or dot")
	cmd.Flags().StringVar(&opts.runID, "run", "", "draw a saved run (an id, last, or a unique part of an id), coloured by outcome")
	_ = cmd.RegisterFlagCompletionFunc("format", fixed("text\tsteps by wave, readable in a terminal", "mermaid\ta Mermaid flowchart or state diagram", "dot\ta Graphviz graph"))
	_ = cmd.RegisterFlagCompletionFunc("run", completeRunIDs(f, false))
	return cmd
}

func runGraph(opts *graphOptions) error {
	format, err := render.PictureFormat("--format", opts.format, opts.f.io.IsStdoutTTY(), "text", "mermaid", graph.Formats...)
	if err != nil {
		return err
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
	return graph.Print(opts.f.io.Out, format, graph.Of(c, out))
}

// runOutcomes reads a saved run: the chain of its snapshot and what
// happened to each step or state.
func runOutcomes(f *factory, ref string) (*chain.Chain, graph.Outcomes, error) {
	st, id, err := f.runID(ref)
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
