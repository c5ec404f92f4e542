package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// kind is what the engine knows of one step kind: how its body runs once,
// the line a dry run shows, and, for a workflow task, the result its
// branches match. Each kind's file (body_*.go) registers its own, so a
// new kind is that file here and its unit in pkg/chain.
type kind struct {
	// run executes the step's body once; t is what its attempts share.
	run func(x *Execution, ctx context.Context, s *chain.Step, sc Scope, t *tries) (outcome, error)
	// plan fills the dry run's line for the step.
	plan func(v planView, s *chain.Step, p *PlannedStep)
	// Result, when set, is the task result of a step of this kind
	// (reference 003); branchable says whether a failed task still has
	// one. Without it a task's result is "ok" or "failed".
	Result func(read func(name string) (Value, bool), s *chain.Step, sr *record.StepResult) (result string, branchable bool)
	// admit, when set, refuses before the run starts a step that cannot
	// run here.
	admit func(l *Local, c *chain.Chain, s *chain.Step) error
	// route and again are Runner.Route and Runner.Again.
	route func(s *chain.Step, route string) (chosen, left []string)
	again func(s *chain.Step, verdict string) (target string, retries int)
}

// Kinds holds every step kind the engine runs, by the chain's name for it.
var Kinds = map[chain.Kind]kind{}

// register adds a step kind; each body file calls it once.
func register(k chain.Kind, b kind) {
	if _, dup := Kinds[k]; dup {
		panic("run: step kind " + string(k) + " registered twice")
	}
	Kinds[k] = b
}

// execute runs the body of a step of any kind once.
func (x *Execution) execute(ctx context.Context, s *chain.Step, sc Scope, t *tries) (outcome, error) {
	if x.Engine.StandIn != nil {
		if c, ok := x.Engine.StandIn(ctx, s); ok {
			return CannedOutcome(s, c)
		}
	}
	if s.Handler != nil {
		return x.execHandler(ctx, s, sc, t)
	}
	k, ok := Kinds[s.Kind]
	if !ok || k.run == nil {
		return outcome{}, &permanentError{fmt.Errorf("a %s step is not supported yet", s.Kind)}
	}
	return k.run(x, ctx, s, sc, t)
}

func (x *Execution) render(t *chain.Template, sc Scope) (string, error) {
	return x.renderBy(t, sc, (*chain.Template).Render)
}

// renderURL renders an http url, each value percent-encoded for where it
// stands (chain.Template.RenderURL).
func (x *Execution) renderURL(t *chain.Template, sc Scope) (string, error) {
	return x.renderBy(t, sc, (*chain.Template).RenderURL)
}

func (x *Execution) renderBy(t *chain.Template, sc Scope, how func(*chain.Template, chain.Resolver, bool) (string, error)) (string, error) {
	if t == nil {
		return "", nil
	}
	out, err := how(t, sc.Resolve, x.Engine.lenient)
	if err != nil {
		return "", &permanentError{err}
	}
	return out, nil
}

// workDir is the directory the run's commands run in: the run's own (a
// resume), or the engine's.
func (x *Execution) workDir() string {
	if x.Req.Dir != "" {
		return x.Req.Dir
	}
	return x.Engine.dir
}

// dir resolves a step's cwd against the directory chainrun started in;
// a chain-defined tool's executor stays under its step's directory, and
// a cwd a decision's arguments make under the run's directory.
func (x *Execution) dir(cwd *chain.Template, sc Scope) (string, error) {
	d, err := x.render(cwd, sc)
	if err != nil {
		return "", err
	}
	if sc.jail != "" {
		if d == "" {
			return sc.jail, nil
		}
		return confinedDir(sc.jail, d)
	}
	if d == "" {
		return x.workDir(), nil
	}
	if x.confines(cwd, false) {
		// a directory a decision may have chosen stays under the run's directory
		return confinedDir(x.workDir(), d)
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(x.workDir(), d)
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return "", &permanentError{fmt.Errorf("cwd %s is not a directory", d)}
	}
	return d, nil
}
