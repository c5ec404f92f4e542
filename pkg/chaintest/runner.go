package chaintest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"golang.org/x/sync/errgroup"
)

// Runner runs test files. Its functions come from the command that
// builds it, with the configuration of the project.
type Runner struct {
	// Resolve finds the chain a test file names: a file's path, or a
	// chain's name in the chains directory.
	Resolve func(ref string, isPath bool) (*chain.Chain, error)
	// Engine builds the engine a case runs on, the case's options last.
	Engine func(opts ...run.Option) run.Engine
	// Models resolves model names to providers (*llm.Registry); only a
	// recording asks it for a live provider.
	Models cassette.Models
	// Prices price the runs' model use, for max_cost_usd.
	Prices *llm.Prices
	// Mode is --record; Live lets network steps run for real, and
	// LiveModels sends model requests to the providers, fresh each run
	// and recorded nowhere (--live --repeat).
	Mode       cassette.Mode
	Live       bool
	LiveModels bool
	// Repeat is how many times each case runs (0 or 1: once).
	Repeat int
	// Update rewrites golden files instead of comparing them.
	Update bool
	// Check lists the recordings no case asked for (Report.Unused).
	Check bool
	// Parallel caps how many cases run at once (0: one per CPU).
	Parallel int
	// Filter, when set, runs only the cases whose name it matches.
	Filter *regexp.Regexp
	// Secrets are values no cassette may hold (API keys from the
	// environment); each case adds its secret inputs.
	Secrets []cassette.Secret
	// Config is config's test: block as read (ReadSettings) from
	// ConfigFile, and settings what Run reads of it: the default grader
	// and embedding model.
	Config     any
	ConfigFile string
	settings   Settings
}

// Report is what a test run found.
type Report struct {
	Files                   []*FileReport `json:"files"`
	Passed, Failed, Skipped int           `json:"-"`
	// Unused are recordings no case asked for (with --check).
	Unused     []string `json:"unused_recordings,omitempty"`
	DurationMS int64    `json:"duration_ms"`
	// Comparison is what changed since a baseline (Compare), when one
	// was given.
	Comparison *Comparison `json:"baseline,omitempty"`
}

// FileReport is one test file's cases.
type FileReport struct {
	Path     string        `json:"file"`
	Chain    string        `json:"chain"`
	Cassette string        `json:"cassette,omitempty"`
	Cases    []*CaseReport `json:"cases"`
	// Saved is set when the file's cassette was written.
	Saved bool `json:"cassette_saved,omitempty"`
}

// CaseReport is one case's verdict (on one model of its matrix).
type CaseReport struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	// Model is the model of the case's matrix this verdict is for.
	Model string `json:"model,omitempty"`
	// Result is passed, failed or skipped.
	Result string `json:"result"`
	// Failures say what did not hold, one line each.
	Failures []string `json:"failures,omitempty"`
	// Status and ExitCode are the run's.
	Status     string   `json:"status,omitempty"`
	ExitCode   int      `json:"exit_code"`
	DurationMS int64    `json:"duration_ms"`
	Updated    []string `json:"golden_updated,omitempty"`
	Skip       string   `json:"skip,omitempty"`
	// CostUSD is what the run's model calls cost (a run's mean when the
	// case repeats, as DurationMS is).
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Runs, Passes, PassRate and RequiredPassRate count a repeated
	// case's runs (set when it ran more than once).
	Runs             int      `json:"runs,omitempty"`
	Passes           int      `json:"passes,omitempty"`
	PassRate         *float64 `json:"pass_rate,omitempty"`
	RequiredPassRate *float64 `json:"required_pass_rate,omitempty"`
	// Assertions are every check the case made, held or not.
	Assertions []Assertion `json:"assertions,omitempty"`
}

// The results of a case.
const (
	Passed  = "passed"
	Failed  = "failed"
	Skipped = "skipped"
)

// Summary is the report's counts, for JSON.
func (r *Report) Summary() map[string]int {
	return map[string]int{"passed": r.Passed, "failed": r.Failed, "skipped": r.Skipped}
}

// OK reports whether no case failed and no recording went unused (which
// the runner looks for only when asked to check).
func (r *Report) OK() bool { return !r.Failing("failure") }

// Run runs the cases of files (already loaded), several at once, and
// saves each cassette that recorded something. An error is a problem with
// the files themselves (a chain that does not load, a mock of a step that
// does not exist): then no case ran.
func (r *Runner) Run(ctx context.Context, files []*File) (*Report, error) {
	start := time.Now()
	type job struct {
		f    *File
		i    int
		c    *chain.Chain
		tape *cassette.Cassette
		// model is the case's matrix model ("": the chain's own), slot
		// where this run's result goes
		model string
		slot  **runResult
	}
	var jobs []job
	var tapes []*cassette.Cassette
	loaded := map[string]*cassette.Cassette{}
	rep := &Report{}
	settles := []func(){}
	var err error
	if r.settings, err = ReadSettings(r.Config); err != nil {
		if r.ConfigFile != "" {
			err = fmt.Errorf("%s: %w", r.ConfigFile, err)
		}
		return nil, err
	}
	for _, f := range files {
		ref, isPath := f.ChainRef()
		c, err := r.Resolve(ref, isPath)
		if err != nil {
			return nil, fmt.Errorf("%s: chain %s: %w", f.Path, ref, err)
		}
		// files that share a cassette share one copy of it
		abs, _ := filepath.Abs(f.CassettePath())
		tape := loaded[abs]
		if tape == nil {
			if tape, err = cassette.LoadIn(filepath.Dir(f.Path), f.cassetteName()); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Path, err)
			}
			loaded[abs] = tape
		}
		fr := &FileReport{Path: f.Path, Chain: c.Name, Cassette: f.CassettePath()}
		rep.Files = append(rep.Files, fr)
		tapes = append(tapes, tape)
		// every case's problems at once, before any case runs
		var bad []error
		for i, tc := range f.Cases {
			bad = append(bad, checkMocks(f, i, tc, c), r.checkGraders(f, i, tc, r.settings), checkModels(f, i, tc, c, r.Models))
		}
		if err := errors.Join(bad...); err != nil {
			return nil, err
		}
		for i, tc := range f.Cases {
			for _, model := range modelsOf(tc) {
				cr := &CaseReport{Name: tc.Name, Line: tc.line, Model: model}
				fr.Cases = append(fr.Cases, cr)
				switch {
				case tc.Skip != "":
					cr.Result, cr.Skip = Skipped, string(tc.Skip)
				case r.Filter != nil && !r.Filter.MatchString(tc.Name):
					cr.Result, cr.Skip = Skipped, "not selected by --run"
				default:
					runs := make([]*runResult, max(r.Repeat, 1))
					for n := range runs {
						jobs = append(jobs, job{f: f, i: i, c: c, tape: tape, model: model, slot: &runs[n]})
					}
					settles = append(settles, func() { settle(cr, runs, tc.requiredRate()) })
				}
			}
		}
	}
	tmp, cleanup, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	roots, err := openRoots(files)
	if err != nil {
		return nil, err
	}
	defer roots.close()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(r.Parallel, 1))
	if r.Parallel <= 0 {
		g.SetLimit(run.DefaultParallel())
	}
	for n, j := range jobs {
		g.Go(func() error {
			if ctx.Err() != nil {
				*j.slot = &runResult{}
				return nil
			}
			caseStart := time.Now()
			tc := j.f.Cases[j.i]
			// each case its own state and cache directories
			o := r.runCase(gctx, j.f, tc, j.c, j.tape, filepath.Join(tmp, fmt.Sprint(n)), j.model)
			k := &checker{dir: roots[filepath.Dir(j.f.Path)], update: r.Update, prices: r.Prices, grading: o.grading}
			for _, m := range o.misses {
				k.hold("recorded answers", false, "%v", m)
				k.explained = true
			}
			k.check(&tc.Expect, j.c, o)
			if len(k.failures) > 0 && !k.explained && o.res.Status != record.Succeeded && tc.Expect.Status == "" && tc.Expect.ExitCode == nil {
				// the expectations that failed may not say why
				k.failf("(the run %s: %s)", o.res.Status, o.res.Error)
			}
			if ctx.Err() != nil && o.res.Status == record.Interrupted {
				k.hold("interrupted", false, "interrupted: the case did not finish")
			}
			*j.slot = o.result(k, time.Since(caseStart))
			return nil
		})
	}
	_ = g.Wait()
	for _, s := range settles {
		s()
	}
	// a recording is unused only if every case that could ask for it
	// ran: every case of every file that shares its cassette
	allRan := map[*cassette.Cassette]bool{}
	for i, fr := range rep.Files {
		if _, seen := allRan[tapes[i]]; !seen {
			allRan[tapes[i]] = true
		}
		for _, cr := range fr.Cases {
			switch cr.Result {
			case Passed:
				rep.Passed++
			case Failed:
				rep.Failed++
			default:
				rep.Skipped++
				allRan[tapes[i]] = false
			}
		}
	}
	for i, fr := range rep.Files {
		if slices.Contains(tapes[:i], tapes[i]) {
			continue // saved and checked with the first file that uses it
		}
		if tapes[i].Changed() {
			if err := tapes[i].Save(); err != nil {
				return nil, fmt.Errorf("saving the recordings: %w", err)
			}
			fr.Saved = true
		}
		if r.Check && allRan[tapes[i]] && ctx.Err() == nil {
			for _, u := range tapes[i].Unused() {
				rep.Unused = append(rep.Unused, fmt.Sprintf("%s: case %q, step %s #%d", tapes[i].Path, u.Case, u.Step, u.Seq))
			}
		}
	}
	rep.DurationMS = time.Since(start).Milliseconds()
	return rep, nil
}
