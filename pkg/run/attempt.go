package run

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/run/mask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// Attempt is one try of one step, as a step kind's run code sees it: the
// step, its values, and the run's services. A kind reaches the execution
// only through it, so a kind can live outside this package (a kind that
// reached into the execution would tie the engine's insides to every
// kind). Its methods are the ones the kinds use, no more.
type Attempt struct {
	x  *Execution
	s  *chain.Step
	sc Scope
	t  *tries
}

// tryOf is the Attempt of step s in scope sc, its tries t (nil for a
// body run outside a step's attempts, a pre_tool's).
func (x *Execution) tryOf(s *chain.Step, sc Scope, t *tries) *Attempt {
	return &Attempt{x: x, s: s, sc: sc, t: t}
}

// Outcome is what one try of a step's body produced, as a kind reports it:
// the value it stores and what the journal and the result keep of it.
type Outcome struct {
	// Value is what a success stores under the step's output.
	Value interp.Value
	// Stdout and Stderr are a command's outputs as captured.
	Stdout, Stderr string
	// Status is an HTTP step's status code, stored as its _status.
	Status int
	// ExitCode is a command's exit status.
	ExitCode int
	// Model, Usage and Finish describe a model step's calls; Cached is
	// an answer served from the cache; ToolCalls counts a tool loop's calls.
	Model     string
	Usage     record.Usage
	Finish    string
	Cached    bool
	ToolCalls int
	// Result is a task's result, which its branches match.
	Result string
	// Decision, Score and Answer are what a router, evaluator or gate
	// decided.
	Decision string
	Score    *float64
	Answer   string
}

// Runner is a step kind's run code written against the exported API: the
// form every kind takes so that it can leave this package.
type Runner struct {
	// Run executes the step's body once.
	Run func(ctx context.Context, a *Attempt) (Outcome, error)
	// Plan fills the dry run's line for the step.
	Plan func(v PlanView, s *chain.Step, p *record.PlannedStep)
	// Result, when set, is the task result of a workflow task of this kind
	// (reference 003), read from the workflow's values; branchable says
	// whether a failed task still has one.
	Result func(read func(name string) (interp.Value, bool), s *chain.Step, sr *record.StepResult) (result string, branchable bool)
	// Admit, when set, refuses before the run starts a step that cannot
	// run here.
	Admit func(l *Local, c *chain.Chain, s *chain.Step) error
	// Route, when set, makes a step of the kind a router of a DAG chain:
	// for the route it decided, the steps that route chose and those it
	// leaves out.
	Route func(s *chain.Step, route string) (chosen, left []string)
	// Again, when set, makes a step of the kind a judge of a DAG chain:
	// for the verdict it gave, the step to run again with its judgement
	// (with the steps between) and how many times at most; "" when the
	// verdict asks for nothing.
	Again func(s *chain.Step, verdict string) (target string, retries int)
}

// Register adds a step kind written against Attempt; each kind's file
// calls it once, in its init.
func Register(k chain.Kind, r Runner) {
	if _, dup := Kinds[k]; dup {
		panic("run: step kind " + string(k) + " registered twice")
	}
	Kinds[k] = r
}

// runKind runs the body of step s once with runner r.
func (x *Execution) runKind(r Runner, ctx context.Context, s *chain.Step, sc Scope, t *tries) (outcome, error) {
	o, err := r.Run(ctx, x.tryOf(s, sc, t))
	return o.inner(), err
}

// PlanView renders a step's fields for a dry run: inputs substituted,
// upstream outputs left as {references}. It is what a kind's Plan sees of
// the run, as Attempt is what its Run sees.
type PlanView struct{ v planView }

// Keep is t rendered for a dry run.
func (p PlanView) Keep(t *chain.Template) string { return p.v.keep(t) }

// URL is an http url rendered for a dry run.
func (p PlanView) URL(t *chain.Template) string { return p.v.url(t) }

// Connection is the chain's connection of that name (nil none).
func (p PlanView) Connection(name string) *chain.Connection { return p.v.x.Chain.Connections[name] }

// inner is o as the engine keeps it.
func (o Outcome) inner() outcome {
	return outcome{Value: o.Value, stdout: o.Stdout, stderr: o.Stderr, status: o.Status, exitCode: o.ExitCode,
		model: o.Model, usage: o.Usage, finish: o.Finish, cached: o.Cached, toolCalls: o.ToolCalls,
		result: o.Result, decision: o.Decision, score: o.Score, answer: o.Answer}
}

// outer is o as a kind sees it.
func (o outcome) outer() Outcome {
	return Outcome{Value: o.Value, Stdout: o.stdout, Stderr: o.stderr, Status: o.status, ExitCode: o.exitCode,
		Model: o.model, Usage: o.usage, Finish: o.finish, Cached: o.cached, ToolCalls: o.toolCalls,
		Result: o.result, Decision: o.decision, Score: o.score, Answer: o.answer}
}

// Permanent marks err as a failure another attempt cannot mend, so the
// step is not retried.
func Permanent(err error) error { return &permanentError{err} }

// Step is the step being tried.
func (a *Attempt) Step() *chain.Step { return a.s }

// Render renders t against the step's values; a failure is permanent.
func (a *Attempt) Render(t *chain.Template) (string, error) { return a.x.render(t, a.sc) }

// RenderURL renders an http url, each value percent-encoded for where it
// stands.
func (a *Attempt) RenderURL(t *chain.Template) (string, error) { return a.x.renderURL(t, a.sc) }

// Resolver resolves a name to the step's values, for a template a kind
// renders itself (with Lenient).
func (a *Attempt) Resolver() chain.Resolver { return a.sc.Resolve }

// Lenient says whether an unknown name renders empty rather than failing.
func (a *Attempt) Lenient() bool { return a.x.Engine.lenient }

// Select is an argument's value: its template rendered, or the value its
// $.-path selects.
func (a *Attempt) Select(arg chain.Arg) (string, error) { return a.x.selectArg(arg, a.sc) }

// List is the list the single reference t names; field names it in an error.
func (a *Attempt) List(t *chain.Template, field string) (interp.Value, error) {
	return a.x.listOf(t, a.sc, field)
}

// ValueEnv is the step's values for an expression that reads names.
func (a *Attempt) ValueEnv(names []string) map[string]any { return a.sc.ValueEnv(names) }

// Document is the step's values as one document, for a $.-path.
func (a *Attempt) Document() map[string]any { return a.sc.document() }

// With is the attempt with name bound to v (an item of a list it walks).
func (a *Attempt) With(name string, v interp.Value) *Attempt {
	b := *a
	b.sc = a.sc.with(name, v)
	return &b
}

// Dir resolves a cwd against the run's directory, confined where a
// decision may have chosen it.
func (a *Attempt) Dir(cwd *chain.Template) (string, error) { return a.x.dir(cwd, a.sc) }

// Jail is the directory every path of the step must stay under ("" none).
func (a *Attempt) Jail() string { return a.sc.jail }

// PathJail is the directory path t of the step, resolved against dir,
// must stay under: the step's jail, else dir itself when a decision's
// arguments (or, fromData, the run's data) may have chosen the path; ""
// when it may name any file. Every reader and writer of a step's paths
// (a file step, a write_file or ast_parse pre_tool) asks here, so none
// is confined less than another.
func (a *Attempt) PathJail(t *chain.Template, fromData bool, dir string) string {
	if jail := a.Jail(); jail != "" {
		return jail
	}
	if a.x.confines(t, fromData) {
		return dir
	}
	return ""
}

// Getenv reads the run's environment (the process's, then its .env).
func (a *Attempt) Getenv(name string) (string, bool) { return a.x.getenv(name) }

// Connection is the chain's connection of that name (nil none).
func (a *Attempt) Connection(name string) *chain.Connection { return a.x.Chain.Connections[name] }

// IdempotencyKey is the key the step's request sends ("" none).
func (a *Attempt) IdempotencyKey() string { return a.sc.key }

// HTTPClient is the client the run's requests go through.
func (a *Attempt) HTTPClient() *http.Client { return a.x.Engine.client }

// Warn adds a warning to the run, once.
func (a *Attempt) Warn(msg string) { a.x.Warn(msg) }

// Now is the run's clock.
func (a *Attempt) Now() time.Time { return a.x.Engine.Now() }

// ValueOf is the value reference r names in the step's values.
func (a *Attempt) ValueOf(r chain.Ref) (interp.Value, bool) { return a.sc.valueOf(r) }

// Grace is how long a command has to end after it is asked to stop.
func (a *Attempt) Grace() time.Duration { return a.x.Engine.grace }

// BinDir is the bin/ directory beside the chain's file ("" none): its
// commands are found by name.
func (a *Attempt) BinDir() string { return a.x.binDir() }

// Arg renders one of a command's args or env values.
func (a *Attempt) Arg(arg chain.Arg) (string, error) { return a.x.arg(arg, a.sc) }

// Environ is the environment a command of the run starts with, extra
// added.
func (a *Attempt) Environ(extra ...string) []string { return a.x.environ(extra...) }

// PathEnv is the PATH a command of the run finds programs on.
func (a *Attempt) PathEnv() string { return a.x.pathEnv() }

// RunID is the run's id.
func (a *Attempt) RunID() string { return a.x.RunID }

// Emit sends an event to the run's stream.
func (a *Attempt) Emit(e event.Event) { a.x.Emit(e) }

// Log is where a command's output goes, line by line, as step.log events
// (nil writers when the run does not log them); flush sends what is left
// of a last line once the command ended.
func (a *Attempt) Log() (stdout, stderr io.Writer, flush func()) {
	if !a.x.Engine.logLines {
		return nil, nil, func() {}
	}
	stdout, stderr = a.x.lineWriter(a.s.ID, "stdout"), a.x.lineWriter(a.s.ID, "stderr")
	return stdout, stderr, func() { mask.FlushLines(stdout, stderr) }
}

// Spill opens the files the step's oversized output is kept in (nil when
// the run keeps none).
func (a *Attempt) Spill() func(stream string) (io.WriteCloser, string, error) {
	return a.x.spill(a.s)
}

// CutNote ends a value cut at the in-memory cap, saying so and where the
// whole is.
func (a *Attempt) CutNote(size int64, path string) string { return a.x.cutNote(size, path) }

// Resolver resolves a name for a dry run: inputs substituted, upstream
// outputs left as {references}.
func (p PlanView) Resolver() chain.Resolver { return p.v.sc.Resolve }

// Arg is a command's argument as a dry run shows it.
func (p PlanView) Arg(arg chain.Arg) (string, error) { return p.v.x.arg(arg, p.v.sc) }

// Script is the script the step runs (a script step's subject).
func (a *Attempt) Script() (*chain.Script, error) { return a.x.Engine.Script(a.x.Chain, a.s) }

// Script is the script a script step runs, for its dry-run line.
func (p PlanView) Script(s *chain.Step) (*chain.Script, error) {
	return p.v.x.Engine.Script(p.v.x.Chain, s)
}

// Mask hides the run's secret values in text, for what is shown or saved.
func (a *Attempt) Mask(text string) string { return a.x.Mask(text) }

// ExprEnv is the step's values for a condition that reads names.
func (a *Attempt) ExprEnv(names []string) map[string]any { return a.sc.ExprEnv(names) }

// Waited is since when the step has waited, and whether the run resumes
// it from a pause; since is now when the journal does not say.
func (a *Attempt) Waited(now time.Time) (since time.Time, ok bool) {
	since = now
	prev, ok := a.x.Req.Resume[a.s.ID]
	ok = ok && prev.Result.Status == record.Paused
	if t, err := time.Parse(time.RFC3339Nano, prev.Result.WaitingSince); ok && err == nil {
		since = a.x.NotAhead(t)
	}
	return since, ok
}

// Take is the decision resume --take gives the step ("" none).
func (a *Attempt) Take() string { return a.x.gateTake(a.s.ID) }

// AskPerson asks the run's person (a terminal, a client) to approve or
// reject the step; ok is false when there is none to ask or no answer.
func (a *Attempt) AskPerson(ctx context.Context, question string) (transition string, ok bool, err error) {
	if a.x.Req.Human == nil {
		return "", false, nil
	}
	links := resume.GateLinks(a.x.Chain, []string{a.s.ID})
	c, ok, err := a.x.Req.Human(ctx, response.Decision{RunID: a.x.RunID, Workflow: a.x.Chain.Name, State: a.s.ID, Goal: question, Links: links})
	return c.Transition, ok, err
}

// Pause makes the step wait for a decision since then, asking question,
// for at most limit (0: as long as it takes): the run pauses there (exit
// 3), its result giving the first deadline. The step returns the error
// it gives.
func (a *Attempt) Pause(question string, since time.Time, limit time.Duration) error {
	x := a.x
	x.mu.Lock()
	if x.waiting == nil {
		x.waiting = map[string]gateWait{}
	}
	x.waiting[a.s.ID] = gateWait{question: question, since: since, limit: limit}
	x.mu.Unlock()
	x.Emit(event.Event{Type: event.Decision, State: a.s.ID, Step: a.s.ID, Status: record.Paused, Detail: "waiting for: approve, reject"})
	return &permanentError{&pausedError{since: since}}
}

// Skip is the error of a step that decided to be skipped, for reason.
func Skip(reason string) error { return &permanentError{&skippedError{reason: reason}} }

// WorkDir is the directory the run's commands run in.
func (a *Attempt) WorkDir() string { return a.x.workDir() }

// MCP is the run's MCP sessions, opened when a step first needs one and
// closed when the run ends.
func (a *Attempt) MCP() *mcpclient.Pool { return a.x.mcpPool() }

// Chain is the chain the step is part of, to read (its name, its steps).
func (a *Attempt) Chain() *chain.Chain { return a.x.Chain }

// Lookup is the value of a name in the step's scope: a variable or output.
func (a *Attempt) Lookup(name string) (interp.Value, bool) { return a.sc.lookup(name) }

// Agent asks the step's model as an agent step does (its prompt, tools,
// tries and cache), for a kind built on that answer.
func (a *Attempt) Agent(ctx context.Context) (Outcome, error) {
	o, err := a.x.runKind(Kinds[chain.KindAgent], ctx, a.s, a.sc, a.t)
	return o.outer(), err
}

// WithNote is the attempt with text added to the step's prompt.
func (a *Attempt) WithNote(text string) *Attempt {
	b := *a
	b.sc.note += text
	return &b
}

// Agent fills p as an agent step's dry-run line, for a kind built on one.
func (p PlanView) Agent(s *chain.Step, into *record.PlannedStep) {
	Kinds[chain.KindAgent].Plan(p, s, into)
}
