package run

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dotenv"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/task"
	"github.com/chainrun/chainrun/pkg/run/web"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// Engine runs a validated chain. A distributed engine can run the same
// chains by satisfying this interface: it is all the CLI knows of one.
type Engine interface {
	// Run executes the chain. The error is for a run that could not start
	// (bad inputs, an unsupported step): then nothing ran. A run that
	// started always returns a Result, whatever its status.
	Run(ctx context.Context, req Request) (*record.Result, error)
	// Plan is what Run would do, without running anything (--dry-run):
	// the same checks, then each step with its resolved command.
	Plan(req Request) ([]record.PlannedStep, error)
	// CheckModels reports every agent step whose model cannot be used
	// where the engine runs (validate shows these as warnings).
	CheckModels(c *chain.Chain) []error
}

// Request is a chain and what to run it with.
type Request struct {
	// RunID addresses the run; NewRunID makes one when it is empty.
	RunID string
	Chain *chain.Chain
	// Inputs are the raw --input values by name.
	Inputs map[string]string
	// ChosenInputs says a model or an MCP client chose the inputs, as a
	// decision's arguments are chosen: a path or cwd made from them (or
	// from anything the run derives) is confined to the run's directory.
	ChosenInputs bool
	// MaxTokens caps the run's model tokens (--max-tokens), with the
	// chain's budget: the smaller wins. 0: no cap.
	MaxTokens int
	// MaxCostUSD caps what the run's model requests cost (--max-cost),
	// with the chain's budget.max_cost_usd: the smaller wins. 0: no cap.
	MaxCostUSD float64
	// Journal, when set, saves each finished step durably.
	Journal record.Journal
	// Events, when set, receives this run's events besides the engine's
	// own sink (a saved run's event log).
	Events event.Sink
	// Resume holds the steps of an earlier attempt of this run: reusable
	// ones are not run again.
	Resume map[string]record.StepRecord
	// Started names steps an earlier attempt started (or may have) without
	// finishing; Rerun names those the caller confirms may run again.
	Started, Rerun map[string]bool

	// History holds the transitions earlier calls of a workflow run took:
	// a resume replays them to find its state, variables and context.
	History []record.TransitionRecord
	// Take is the transition the caller chose at the decision point the
	// run paused at (resume --take), or the failed transition to retry.
	Take string
	// Args are the arguments of the Take decision (--arg, --args-file),
	// checked against its transition's inputSchema.
	Args map[string]any
	// Acks are subjects the caller acknowledges having read (resume
	// --ack), recorded before the decision: acknowledgment guards read
	// them. Each must name a script or skill the run can show.
	Acks []string
	// AgentModel, when set, lets that model decide agent decision points
	// instead of pausing (--agent-model; the workflow's agent.model
	// otherwise).
	AgentModel string
	// Human, when set, asks a person at human decision points (a
	// terminal); without it the run pauses there.
	Human response.Decider
	// Decide, when set, is asked first at every decision point, agent
	// or human: a chain test's scripted decisions. When it does not
	// choose, the point is decided as without it.
	Decide response.Scripted

	// Dir, when set, is the directory this run's commands run in and its
	// relative paths resolve against, instead of the engine's: a resumed
	// run goes on where it started, wherever the resume is typed.
	Dir string

	// OutputDir, when set, is where a command's output that outgrows the
	// in-memory cap is kept whole (the run's directory); its variable
	// then holds a bounded prefix that says where the rest is.
	OutputDir string

	// Grants pre-approves tools that a step does not list, for the whole
	// run (--grant TOOL).
	Grants map[string]bool
	// Ask, when set, asks a person whether one tool call outside a step's
	// tools may run (a terminal); without it such calls are denied.
	Ask ask.ToolAsker

	// Trace, when valid, is the run's place in an exported trace: the
	// trace id and the run's span. Commands get TRACEPARENT and requests
	// traceparent of their step attempt's span (pkg/tracectx derives its
	// id, as pkg/telemetry does for the span it exports).
	Trace tracectx.Context
}

// Local runs chains in this process.
type Local struct {
	parallel int
	// keepGoing lets a DAG run's independent steps finish after a
	// failure (WithKeepGoing; a chain's keep_going says the same).
	keepGoing bool
	dir       string
	events    event.Sink
	logLines  bool
	client    *http.Client
	grace     time.Duration
	lenient   bool
	chains    ChainResolver
	// workflows and scripts find the workflow a workflow step names, the
	// script a script step runs, outside their own file.
	workflows WorkflowResolver
	Scripts   ScriptResolver
	// loader reads the chain files around the running one (loader.go).
	loader Loader
	// prices and captureContent are what llm.call events say of a
	// request (request_event.go).
	prices         *llm.Prices
	captureContent bool
	Now            func() time.Time

	Models       Models
	defaultModel string
	streaming    bool
	cache        cache.Cache
	cacheReads   bool
	// Principal is who runs act for, as permission and role guards see
	// it; nil when none is configured.
	Principal *chain.Principal
	// search is the provider of web_search pre_tools; preCache keeps
	// pre_tool results (cache_ttl_minutes) when no cache is configured;
	// preToolDelay is the first wait before a pre_tool's retry.
	search       web.Provider
	preCache     *cache.Mem
	preToolDelay time.Duration
	// Remote, when set, runs steps as a durable engine's tasks (remote.go).
	Remote *task.Remote
	// StandIn, when set, may replace step bodies; env is added to every
	// command's environment (standin.go).
	StandIn StandIn
	env     map[string]string
	// dotenv are config's dotenv files, read when each run starts.
	dotenv []dotenv.File
	// dotenvRead, when set, is told every dotenv file's values a run
	// reads (WithDotenvRead).
	dotenvRead func(map[string]string)
}

// ChainResolver finds the chain a chain step calls, by name; from is
// the calling chain's file, near which a chain the chains directory lacks
// is looked for (OCC keeps pipelines/ beside chains/).
type ChainResolver func(name, from string) (*chain.Chain, error)

// WorkflowResolver finds the workflow a workflow step names by its
// definitionId when its own file (from) holds none of that name.
type WorkflowResolver func(name, from string) (*chain.Chain, error)

// ScriptResolver finds the script a script step runs by its subject when
// its own file's (from's) scripts: library lacks it.
type ScriptResolver func(subject, from string) (*chain.Script, error)

var _ Engine = (*Local)(nil)

// Option configures a Local engine.
type Option func(*Local)

// WithParallel caps how many steps run at once (default: the number of
// CPUs, at least 4).
func WithParallel(n int) Option { return func(l *Local) { l.parallel = n } }

// WithKeepGoing lets the steps that do not depend on a failed step run
// to the end, as make -k does, rather than be cancelled: a CI run then
// reports every failure at once. The run still fails.
func WithKeepGoing(on bool) Option { return func(l *Local) { l.keepGoing = on } }

// WithDir sets the directory commands run in and relative paths resolve
// against (default: the working directory).
func WithDir(dir string) Option { return func(l *Local) { l.dir = dir } }

// WithEvents sends run events to s.
func WithEvents(s event.Sink) Option { return func(l *Local) { l.events = s } }

// WithLogLines emits every line a step's command prints as a step.log
// event (for --verbose).
func WithLogLines(on bool) Option { return func(l *Local) { l.logLines = on } }

// WithGrace sets the time a cancelled command has between TERM and KILL.
func WithGrace(d time.Duration) Option { return func(l *Local) { l.grace = d } }

// WithLenientVariables keeps unresolved references literal at run time
// (config strict_variables: false).
func WithLenientVariables(on bool) Option { return func(l *Local) { l.lenient = on } }

// WithChains lets chain steps call other chains, found by name.
func WithChains(r ChainResolver) Option { return func(l *Local) { l.chains = r } }

// WithWorkflows lets workflow steps run workflows of other files, found
// by definitionId.
func WithWorkflows(r WorkflowResolver) Option { return func(l *Local) { l.workflows = r } }

// WithScripts lets script steps run scripts of other files' libraries,
// found by subject.
func WithScripts(r ScriptResolver) Option { return func(l *Local) { l.Scripts = r } }

// WithModels lets agent steps call models, resolved by name.
func WithModels(m Models) Option { return func(l *Local) { l.Models = m } }

// WithDefaultModel is the model of agent steps that name none.
func WithDefaultModel(model string) Option { return func(l *Local) { l.defaultModel = model } }

// WithStreaming makes model calls stream, each piece of text arriving as
// an llm.delta event (for a live display). Results are the same.
func WithStreaming(on bool) Option { return func(l *Local) { l.streaming = on } }

// WithCache keeps agent answers of steps with `cache` in c (a
// *cache.Store on disk, a *cache.Mem in memory). read false (--no-cache)
// ignores stored answers but still stores fresh ones.
func WithCache(c cache.Cache, read bool) Option {
	return func(l *Local) { l.cache, l.cacheReads = c, read }
}

// WithPrincipal sets who runs act for: the id, roles and permissions
// that a workflow's permission and role guards check and its evidence
// records name (nil: none configured, and such guards do not hold).
func WithPrincipal(p *chain.Principal) Option { return func(l *Local) { l.Principal = p } }

// New builds a Local engine.
func New(opts ...Option) *Local {
	l := &Local{
		parallel: DefaultParallel(),
		events:   event.Discard,
		client:   &http.Client{},
		Now:      time.Now,
		preCache: cache.NewMem(),
		// OCC waits a second before a pre_tool's retry, then longer
		preToolDelay: time.Second,
	}
	for _, o := range opts {
		o(l)
	}
	if l.dir == "" {
		l.dir, _ = os.Getwd()
	}
	if l.parallel < 1 {
		l.parallel = DefaultParallel()
	}
	return l
}

// DefaultParallel is the number of CPUs, at least 4: steps mostly wait on
// processes and the network, not on this machine's cores.
func DefaultParallel() int { return max(runtime.NumCPU(), 4) }

// RunIDTime is the start time a run id encodes (to the millisecond).
func RunIDTime(id string) (time.Time, bool) {
	if len(id) < 19 {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation("20060102-150405.000", id[:15]+"."+id[16:19], time.UTC)
	return t, err == nil
}

// NewRunID returns a run id that sorts by start time, to the millisecond:
// 20261122-190352-417-739eaf. The suffix tells apart runs started in the
// same millisecond; it needs no secrecy, so it comes from the runtime's
// per-process generator rather than crypto/rand (whose first use asks the
// kernel and sets up a DRBG at every run).
func NewRunID(t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%s-%03d-%06x", t.Format("20060102-150405"), t.Nanosecond()/int(time.Millisecond), rand.Uint32()&0xffffff)
}

// Durable is an engine that keeps its runs itself (Temporal): the CLI
// starts, lists, shows, decides and cancels its runs through it, not
// through the state directory. Run starts a run and waits for it to
// end or pause, its events sent to req.Events as they happen.
type Durable interface {
	Engine
	// Start starts a run and returns its id without waiting (--detach).
	Start(ctx context.Context, req Request) (string, error)
	// Wait follows a run until it ends or pauses, sending its events to
	// events (nil: none).
	Wait(ctx context.Context, runID string, events event.Sink) (*record.Result, error)
	// Take answers the decision the run waits at (resume --take). With t
	// empty (a plain resume) it retries a failed run and leaves any other
	// as it is. A choice the run cannot take is refused before it is
	// recorded, and the run waits on.
	Take(ctx context.Context, runID string, t TakeRequest) error
	// Show is the run's result as it stands.
	Show(ctx context.Context, runID string) (*record.Result, error)
	// Runs lists the latest runs, newest first (at most limit).
	Runs(ctx context.Context, limit int) ([]RunInfo, error)
	// Cancel asks the run to stop: its running steps are cancelled.
	Cancel(ctx context.Context, runID string) error
}

// TakeRequest is what resume gives a durable run: the transition (or
// approve/reject for a gate) and its arguments (--take, --arg), the
// subjects acknowledged with it (--ack), and the non-idempotent steps
// confirmed to run again (--rerun).
type TakeRequest struct {
	Take  string         `json:"take"`
	Args  map[string]any `json:"args,omitempty"`
	Acks  []string       `json:"acks,omitempty"`
	Rerun []string       `json:"rerun,omitempty"`
}

// Empty reports whether t takes nothing: a plain resume.
func (t TakeRequest) Empty() bool {
	return t.Take == "" && len(t.Args) == 0 && len(t.Acks) == 0 && len(t.Rerun) == 0
}

// RunInfo is one run as a list shows it.
type RunInfo struct {
	RunID     string `json:"run_id"`
	Chain     string `json:"chain"`
	Status    string `json:"status"`
	StartedAt string `json:"started_at"`
}
