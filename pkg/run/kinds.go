package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Kinds holds every step kind the engine runs, by the chain's name for
// it: each kind's Runner, registered by its package (Register).
var Kinds = map[chain.Kind]Runner{}

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
	if !ok || k.Run == nil {
		return outcome{}, &permanentError{fmt.Errorf("a %s step is not supported yet", s.Kind)}
	}
	return x.runKind(k, ctx, s, sc, t)
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
