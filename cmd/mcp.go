package cmd

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/buildinfo"
	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/mcpserver"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/resume"
	"github.com/chainrun/chainrun/pkg/tracectx"
	"github.com/spf13/cobra"
)

// minReloadEvery is the shortest --reload-every taken.
const minReloadEvery = 100 * time.Millisecond

type mcpOptions struct {
	f           *factory
	http        string
	stateless   bool
	remote      bool
	wait        time.Duration
	chainTools  []string
	allUpTo     int
	reloadEvery time.Duration
}

func newMCPCmd(f *factory) *cobra.Command {
	opts := &mcpOptions{f: f}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the chains to MCP clients (stdio, or streamable HTTP with --http)",
		Long: `Serve the chains of the chains directory over the Model Context Protocol,
on stdin and stdout (the client starts chainrun mcp), or with --http on a
loopback address. Tools: list_chains, start_run, get_run, take_transition,
cancel_run, and run_<chain> for the chains named by --chain-tool (every
chain while there are at most --chain-tools-max). Each answers reference
000's response; runs are ordinary saved runs (chainrun runs, resume).
See docs/mcp.md.`,
		Example: `  chainrun mcp
  chainrun mcp --http 127.0.0.1:8808 --chain-tool deploy`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd.Context(), opts) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.http, "http", "", "serve streamable HTTP on this address (host:port, loopback unless --allow-remote) instead of stdio")
	fl.BoolVar(&opts.stateless, "stateless", false, "with --http: serve each request on its own, without sessions")
	fl.BoolVar(&opts.remote, "allow-remote", false, "with --http: allow an address that is not loopback")
	fl.DurationVar(&opts.wait, "wait", mcpserver.DefaultWait, "answer a call whose run is still going after this long with status running")
	fl.StringArrayVar(&opts.chainTools, "chain-tool", nil, "give this chain a tool of its own, run_<chain> (repeatable)")
	fl.IntVar(&opts.allUpTo, "chain-tools-max", 10, "give every chain a tool of its own while there are at most this many")
	fl.DurationVar(&opts.reloadEvery, "reload-every", 2*time.Second, "look for changed chain files this often (0: never; at least 100ms)")
	return cmd
}

func runMCP(ctx context.Context, opts *mcpOptions) error {
	f := opts.f
	if opts.http == "" && (opts.stateless || opts.remote) {
		return usagef("--stateless and --allow-remote go with --http")
	}
	if opts.wait <= 0 {
		return usagef("--wait %s: want a duration above 0", opts.wait)
	}
	if opts.reloadEvery < 0 || opts.reloadEvery > 0 && opts.reloadEvery < minReloadEvery {
		// each look reads every chain file: a nanosecond would spin a core
		return usagef("--reload-every %s: want 0 (never) or at least %s", opts.reloadEvery, minReloadEvery)
	}
	// the factory's lazy parts are made now, before calls come at once
	if _, err := f.library(); err != nil {
		return err
	}
	if _, err := f.stateStore(); err != nil {
		return err
	}
	s := mcpserver.New(&mcpRuns{f: f}, mcpserver.Options{Wait: opts.wait, ChainTools: opts.chainTools, AllToolsUpTo: opts.allUpTo,
		Version: buildinfo.Read(version, commit, date).Version})
	defer s.Close()
	s.Reload()
	if opts.reloadEvery > 0 {
		go s.Watch(ctx, opts.reloadEvery)
	}
	if opts.http == "" {
		err := s.Serve(ctx, mcpserver.Stdio(f.io.In, f.io.Out, mcpserver.MaxFrame))
		if ctx.Err() != nil {
			return nil // stopped by a signal, as asked
		}
		return err
	}
	ln, err := mcpserver.Listen(opts.http, opts.remote)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.io.ErrOut, "chainrun mcp: serving on http://%s\n", ln.Addr())
	return s.ServeHTTP(ctx, ln, opts.stateless)
}

// mcpRuns is the MCP server's Backend: the chains directory, and runs
// started, resumed and read as run and resume do, saved in the state
// directory. The factory is not safe for calls at once: what it makes
// is made under mu.
type mcpRuns struct {
	f  *factory
	mu sync.Mutex
}

var _ mcpserver.Backend = (*mcpRuns)(nil)

func (m *mcpRuns) Catalog() (*catalog.Catalog, error) {
	dir, err := m.f.chainsDir()
	if err != nil {
		return nil, err
	}
	opts, err := m.f.chainOptions()
	if err != nil {
		return nil, err
	}
	return catalog.Open(dir, opts)
}

func (m *mcpRuns) Start(ctx context.Context, name string, inputs map[string]string, events event.Sink) (*record.Result, error) {
	cat, err := m.Catalog()
	if err != nil {
		return nil, err
	}
	loaded, err := cat.Find(name)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	engine, view, err := m.f.newEngine(engineOptions{quiet: true, served: true, parentTrace: tracectx.FromContext(ctx)})
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	req := run.Request{Chain: loaded.Chain, Inputs: inputs, Events: events, ChosenInputs: true, Trace: view.trace.Context()}
	return runSaved(ctx, m.f, engine, req, inputs, nil)
}

func (m *mcpRuns) Resume(ctx context.Context, id string, d mcpserver.Decision, events event.Sink) (*record.Result, error) {
	st, err := m.f.stateStore()
	if err != nil {
		return nil, err
	}
	session, saved, err := st.Continue(id)
	if err != nil {
		return nil, err
	}
	defer session.Close() // when it is not driven
	if saved.Record.Status == record.Succeeded && saved.Result != nil {
		return nil, usagef("run %s already succeeded; there is no decision to make", id)
	}
	if err := saved.CheckDir(); err != nil {
		return nil, err
	}
	if err := saved.CheckSecrets(d.Secrets); err != nil {
		return nil, err
	}
	chainOpts, err := m.f.chainOptions()
	if err != nil {
		return nil, err
	}
	lenient := saved.Record.LenientVariables || chainOpts.LenientVariables
	c, err := saved.Chain(chainOpts, false)
	if err != nil {
		return nil, err
	}
	rerun, err := resume.RerunSet(c, d.Rerun)
	if err != nil {
		return nil, err
	}
	inputs := saved.Inputs(d.Secrets, func(string) {})
	m.mu.Lock()
	engine, view, err := m.f.newEngine(engineOptions{quiet: true, lenient: &lenient, earlierTraces: saved.Traces, served: true, parentTrace: tracectx.FromContext(ctx)})
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return session.Drive(ctx, engine, run.Request{RunID: id, Chain: c, Inputs: inputs, ChosenInputs: true, Resume: saved.Steps, Started: saved.Started,
		History: saved.Transitions, Take: d.Take, Args: d.Args, Acks: d.Acks, Rerun: rerun, Events: events, Trace: view.trace.Context()})
}

func (m *mcpRuns) Get(ref string) (*mcpserver.Saved, error) {
	st, id, err := m.f.runID(ref)
	if err != nil {
		return nil, err
	}
	saved, err := st.Load(id)
	if err != nil {
		return nil, err
	}
	sv := &mcpserver.Saved{RunID: id, Name: saved.Record.Name, Status: saved.Record.Status, Result: saved.Result,
		Version: len(saved.Transitions) + len(saved.Steps)}
	if opts, err := m.f.chainOptions(); err == nil {
		sv.Chain, _ = saved.Chain(opts, false)
	}
	return sv, nil
}
