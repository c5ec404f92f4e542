package store

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// ChainError is a saved run whose chain cannot be had as it was: the
// snapshot holds no such chain, or a reloaded file changed its shape.
// Nothing ran.
type ChainError struct{ Msg string }

func (e *ChainError) Error() string { return e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *ChainError) NothingRan() bool { return true }

// Chain is the chain a resume runs: the run's snapshot, or with reload the
// file as it is now (loaded with opts), which must have the same steps,
// or a workflow's same states and transitions.
func (sv *Saved) Chain(opts chain.Options, reload bool) (*chain.Chain, error) {
	file, name := sv.Record.ChainFile, sv.Record.Name
	lenient := opts.LenientVariables || sv.Record.LenientVariables
	// with reload the snapshot only lends its shape: it is read
	// leniently, so a chain that no longer validates can be replaced
	snapFile, err := load.Parse(file+" (snapshot)", sv.Snapshot, chain.Options{LenientVariables: lenient || reload})
	if err != nil {
		return nil, err
	}
	snap := pick(snapFile, name)
	if snap == nil {
		return nil, &ChainError{fmt.Sprintf("the run's snapshot of %s holds no chain named %s", file, name)}
	}
	if !reload {
		snap.File = file
		return snap, nil
	}
	opts.LenientVariables = lenient
	curFile, err := load.LoadFile(file, opts)
	if err != nil {
		return nil, err
	}
	cur := pick(curFile, name)
	if cur == nil {
		return nil, &ChainError{fmt.Sprintf("--reload: %s no longer holds a chain named %s; start a new run instead", file, name)}
	}
	if a, b := shapeOf(snap), shapeOf(cur); a != b {
		what := "steps"
		if snap.Workflow != nil {
			what = "states and transitions"
		}
		return nil, &ChainError{fmt.Sprintf("--reload: %s no longer has the run's %s (run: %s; file: %s); start a new run instead", file, what, a, b)}
	}
	return cur, nil
}

// pick is the file's chain of that name; an empty name (a run saved
// before names were recorded) means its first.
func pick(l *chain.Loaded, name string) *chain.Chain {
	if name == "" {
		return l.Chain
	}
	return l.Named(name)
}

// shapeOf is what a reloaded chain must keep for a run's saved progress to
// mean the same: its step ids, or a workflow's states and transitions.
func shapeOf(c *chain.Chain) string {
	var ids []string
	if w := c.Workflow; w != nil {
		for _, s := range w.States {
			ids = append(ids, s.Name)
			for _, t := range s.Transitions {
				ids = append(ids, s.Name+"."+t.Name+"→"+t.Target)
			}
		}
	} else {
		for _, s := range c.Steps {
			ids = append(ids, s.ID)
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// CheckDir refuses to resume a run whose directory (where it started,
// where the rest must run) is gone.
func (sv *Saved) CheckDir() error {
	if d := sv.Record.Dir; d != "" {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return &ChainError{fmt.Sprintf("run %s runs in the directory it started in, %s, which is no longer there: restore it to resume", sv.Record.RunID, d)}
		}
	}
	return nil
}

// Inputs are the inputs a resume runs with: the saved ones, with given
// ones on top. A changed value is allowed (to mend a wrong input), but
// finished steps keep what they did with the old one, and warn says so.
func (sv *Saved) Inputs(given map[string]string, warn func(string)) map[string]string {
	out := map[string]string{}
	for k, v := range sv.Record.Inputs {
		out[k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(given)) {
		v := given[k]
		if old, saved := out[k]; saved && old != v {
			warn(fmt.Sprintf("input %s changes from %q to %q for the rest of run %s; steps that finished used %q", k, old, v, sv.Record.RunID, old))
		}
		out[k] = v
	}
	return out
}
