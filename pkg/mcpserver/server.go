package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Backend is how the server reaches runs: cmd's starts and resumes them
// on the engine as saved runs of the state directory; tests give fakes.
type Backend interface {
	// Catalog loads the chains directory afresh: every chain, or the
	// error that keeps one from loading.
	Catalog() (*catalog.Catalog, error)
	// Start runs a chain of the catalog as a new saved run, its events
	// (the first carries the run's id) also sent to events. The error is
	// for a run that could not start: then nothing ran.
	// ctx carries the trace of the client's request, when it sent one
	// (tracectx.FromContext): the run continues it.
	Start(ctx context.Context, name string, inputs map[string]string, events event.Sink) (*record.Result, error)
	// Resume continues saved run id as the decision d says, as chainrun
	// resume --take does.
	Resume(ctx context.Context, id string, d Decision, events event.Sink) (*record.Result, error)
	// Get reads saved run ref (an id, or a part of one only one run's
	// id begins or ends with).
	Get(ref string) (*Saved, error)
}

// Decision is what a take_transition call decides: the transition to
// take (empty: go on where the run stopped), its arguments, and the
// subjects acknowledged first (resume's --take, --arg, --ack and --rerun).
type Decision struct {
	Take string
	Args map[string]any
	Acks []string
	// Rerun confirms that these steps, which are not idempotent and may
	// have started before, run again (resume's --rerun).
	Rerun []string
	// Secrets are the secret inputs the run was started with, which are
	// never saved: the server that started it holds them while it
	// serves, so that its runs go on (resume's --input).
	Secrets map[string]string
}

// Saved is a run as the Backend reads it back.
type Saved struct {
	RunID  string
	Name   string
	Status event.Status
	// Version counts what the run has saved (transitions and steps): it
	// grows whenever the run moves.
	Version int
	// Result is the last call's result (nil while a first call runs).
	Result *record.Result
	// Chain is the chain the run runs (its snapshot), for the arguments
	// of its decisions; nil when it cannot be read.
	Chain *chain.Chain
}

// Options are what `chainrun mcp` chooses.
type Options struct {
	// Wait is the soft deadline of a call: a run still going then is
	// answered as running, with a get_run link (DefaultWait when 0).
	Wait time.Duration
	// ChainTools names the chains that get a tool of their own,
	// run_<name>, with their input schema.
	ChainTools []string
	// AllToolsUpTo gives every chain a tool of its own while the chains
	// directory holds at most this many chains.
	AllToolsUpTo int
	// Version is chainrun's version, told to clients.
	Version string
	// ProtocolVersions, when set, are the only MCP protocol versions
	// offered (an older client's, say); all the SDK knows otherwise.
	ProtocolVersions []string
}

// DefaultWait is the soft deadline of a call when Options.Wait is 0:
// below the minute most clients wait for a tool.
const DefaultWait = 25 * time.Second

// Server is chainrun's MCP server.
type Server struct {
	b    Backend
	opts Options
	mcp  *mcp.Server

	// base is the context runs run under: they outlive the calls that
	// start them, and stop (saved, resumable) when the server closes.
	base   context.Context
	stop   context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	active map[string]*active
	cat    *catalog.Catalog
	catErr error
	// tools are the per-chain tools registered, by name, with what they
	// were registered as (so that a reload replaces only those changed).
	tools map[string]string
	stamp string
	// secrets are the secret inputs of the runs this server started, by
	// run id, held in memory only (never saved).
	secrets map[string]map[string]string
}

// Tool names of the fixed set.
const (
	toolList   = "list_chains"
	toolStart  = "start_run"
	toolGet    = "get_run"
	toolTake   = "take_transition"
	toolCancel = "cancel_run"
)

// Instructions tell a client's model how the tools fit together.
const Instructions = `chainrun runs chains: deterministic steps run on their own, and a workflow stops only where a decision is needed.

1. list_chains shows the chains, what each does and the inputs it takes.
2. start_run {chain, inputs} starts one (a chain may also have a tool of its own, run_<chain>).
3. Every run tool answers one response: run_id, version, status, state, chain (the transitions taken on their own), context, guidance and links. Each link is the next call to make, with its tool and arguments.
4. status "paused" is a decision point: read the context and guidance, then call take_transition with the arguments of the link you choose. A link whose transition needs arguments carries a placeholder for each ("<string>", "<low|high>"), described in its required_arguments: replace each with a value. A link whose arguments carry "acknowledge" waits for those subjects to be acknowledged: read their bodies in guidance.acknowledge before you call it. expected_version makes a choice made on an out-of-date view be refused, with the current links.
5. status "running": the run goes on after the call returns; call get_run to see it again. cancel_run stops it (it stays resumable).
6. "failed" carries the error and a link to retry what failed; "refused" means nothing happened: read the error and follow its link. A link that carries "rerun" runs again a step that may already have done its work (a deploy, a payment): check first.

Runs are saved: chainrun runs lists them and chainrun resume continues them from a terminal.`

// New builds the server over b; call Reload to load the chains before
// serving, and Close when done.
func New(b Backend, opts Options) *Server {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	s := &Server{b: b, opts: opts, active: map[string]*active{}, tools: map[string]string{}, secrets: map[string]map[string]string{}}
	s.base, s.stop = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "chainrun", Version: opts.Version},
		&mcp.ServerOptions{Instructions: Instructions, SupportedProtocolVersions: opts.ProtocolVersions, Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}})
	s.addFixedTools()
	return s
}

// MCP is the SDK server, to run over a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Serve serves over t until ctx ends (a stop signal) or the client goes.
// A stop first stops the runs going (each saved as interrupted, its
// processes ended): the transport's close waits for every call in
// flight, and a call waiting on a run would otherwise hold the server
// for as long as its wait.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	defer context.AfterFunc(ctx, s.stop)()
	return s.mcp.Run(ctx, t)
}

// Close stops the runs still going (each is saved as interrupted and can
// be resumed) and waits for them.
func (s *Server) Close() {
	s.stop()
	s.wg.Wait()
}
