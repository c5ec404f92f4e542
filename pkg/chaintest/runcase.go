package chaintest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dotenv"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// networkKinds are the step kinds that reach other machines: a hermetic
// case must mock them.
var networkKinds = map[chain.Kind]bool{chain.KindHTTP: true, chain.KindMCP: true, chain.KindWebhook: true, chain.KindBrowser: true}

// noProxy is where a hermetic case's commands find their HTTP proxy: a
// port nothing listens on, so that a command that would reach the
// network through the usual variables fails at once instead.
const noProxy = "http://127.0.0.1:9"

// runCase runs one case of a file on c and returns what it did; model,
// when set, is the model of the case's matrix every model step asks.
func (r *Runner) runCase(ctx context.Context, f *File, tc *Case, c *chain.Chain, tape *cassette.Cassette, tmp, model string) *outcome {
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return &outcome{res: &record.Result{Name: c.Name, Status: refused, Error: err.Error()}, exit: 2}
	}
	inputs := map[string]string{}
	for k, v := range tc.Inputs {
		inputs[k] = string(v)
	}
	secrets := append([]cassette.Secret(nil), r.Secrets...)
	for _, in := range c.Inputs {
		v, given := inputs[in.Name]
		if !given && in.Default != nil {
			v = fmt.Sprint(in.Default) // a secret's default is as secret
		}
		if in.Secret && v != "" {
			secrets = append(secrets, cassette.Secret{Name: "secret input " + in.Name, Value: v})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(tc.Mocks.Env)) {
		secrets = append(secrets, VarSecrets("mocks.env variable", map[string]string{k: tc.Mocks.Env[k]})...)
	}
	script := cassette.NewScript(map[string][]cassette.Answer(nil))
	if len(tc.Mocks.Models) > 0 {
		steps := map[string][]cassette.Answer{}
		for id, a := range tc.Mocks.Models {
			steps[id] = a
		}
		script = cassette.NewScript(steps)
	}
	mode := r.Mode
	if r.LiveModels {
		mode = cassette.ModeLive
	}
	session := cassette.NewSession(tape, tc.Name, mode, r.Models, secrets, script)
	rec := &event.Recorder{}
	opts := []run.Option{
		run.WithModels(session),
		run.WithEvents(rec),
		run.WithStandIn(r.standIn(tc)),
		run.WithEnv(r.env(tc, tmp)),
		run.WithCache(cache.NewMem(), true), // answers kept within the case only
		run.WithStreaming(false),
		// the credentials of every dotenv file the run reads (the
		// config's, the chain's, a called chain's) are refused as the
		// environment's are
		run.WithDotenvRead(func(vars map[string]string) { session.AddSecrets(VarSecrets("dotenv variable", vars)...) }),
	}
	if model != "" {
		opts = append(opts, run.WithModels(oneModel{session: session, model: model}), run.WithDefaultModel(model))
	}
	if tc.Mocks.Time != "" {
		at, _ := time.Parse(time.RFC3339, tc.Mocks.Time)
		opts = append(opts, run.WithClock(func() time.Time { return at }))
	}
	engine := r.Engine(opts...)
	if r.Mode == cassette.ModeNone && !r.Live {
		// retries and rate limits wait in virtual time
		ctx = retry.WithoutWaits(ctx)
	}
	req := run.Request{Chain: c, Inputs: inputs, Decide: decider(tc.Mocks.Decisions)}
	res, err := engine.Run(ctx, req)
	o := &outcome{res: res, events: rec.Events(), misses: session.Misses(), secrets: session.Secrets(), grading: &Grading{ctx: ctx, session: session, settings: r.settings}}
	if err != nil {
		o.res, o.exit = &record.Result{Name: c.Name, Status: refused, Error: err.Error()}, 2
	} else {
		o.exit = exitCode(res.Status)
	}
	o.price(r.Prices)
	return o
}

// standIn replaces the bodies of the case's mocked steps, and refuses
// the network steps it does not mock unless the run is live.
func (r *Runner) standIn(tc *Case) run.StandIn {
	var mu sync.Mutex
	next := map[string]int{}
	return func(ctx context.Context, s *chain.Step) (run.Canned, bool) {
		if results, ok := tc.Mocks.Steps[s.ID]; ok {
			mu.Lock()
			n := next[s.ID]
			next[s.ID]++
			mu.Unlock()
			return results[min(n, len(results)-1)], true
		}
		if networkKinds[s.Kind] && !r.Live {
			return run.Canned{Err: fmt.Sprintf("%s step %s is not mocked: a chain test reaches no network (mock it under mocks.steps, or run %s test --live)", s.Kind, s.ID, response.Command())}, true
		}
		return run.Canned{}, false
	}
}

// env is the environment the case's commands get: a state and cache
// directory of the test's own, no way out through a proxy (unless
// live), and the case's variables over all.
func (r *Runner) env(tc *Case, tmp string) map[string]string {
	env := map[string]string{
		"CHAINRUN_STATE_DIR": filepath.Join(tmp, "state"),
		"CHAINRUN_CACHE_DIR": filepath.Join(tmp, "cache"),
	}
	if !r.Live {
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
			env[k] = noProxy
		}
		env["NO_PROXY"], env["no_proxy"] = "", ""
	}
	for k, v := range tc.Mocks.Env {
		env[k] = v
	}
	return env
}

// decider takes the case's scripted decisions: at each visit of a state,
// the next one listed for it; once they are used up the run pauses there,
// as it would with no one to decide.
func decider(decisions map[string]Decisions) response.Scripted {
	if len(decisions) == 0 {
		return nil
	}
	var mu sync.Mutex
	next := map[string]int{}
	return func(_ context.Context, d response.Decision) (response.Choice, bool) {
		mu.Lock()
		defer mu.Unlock()
		list := decisions[d.State]
		n := next[d.State]
		if n >= len(list) {
			return response.Choice{}, false
		}
		next[d.State]++
		return list[n], true
	}
}

// checkMocks refuses mocks and expectations that name no step or state
// of the chain: a typo would otherwise make a case pass for nothing.
func checkMocks(f *File, i int, tc *Case, c *chain.Chain) error {
	ids := map[string]bool{}
	byID := map[string]*chain.Step{}
	eachStep(c, func(s *chain.Step) { ids[s.ID], byID[s.ID] = true, s })
	states := map[string]bool{}
	if c.Workflow != nil {
		for _, s := range c.Workflow.States {
			states[s.Name] = true
		}
	}
	at := func(path ...string) string {
		return fmt.Sprintf("%s:%d", f.Path, f.line(append([]string{"cases", fmt.Sprint(i)}, path...)...))
	}
	var errs []error
	bad := func(path []string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: case %q: %s: %s", at(path...), tc.Name, strings.Join(path, "."), fmt.Sprintf(format, args...)))
	}
	for _, name := range slices.Sorted(maps.Keys(tc.Mocks.Env)) {
		if !dotenv.ValidName(name) {
			bad([]string{"mocks", "env"}, "%q is no environment variable name (letters, digits and _, not starting with a digit)", name)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(tc.Mocks.Steps)) {
		if !ids[id] {
			bad([]string{"mocks", "steps", id}, "%s has no step %s (the steps of a chain a chain step calls are mocked through that step)", c.Name, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(tc.Mocks.Models)) {
		path := []string{"mocks", "models", id}
		outer, _, nested := strings.Cut(id, "/")
		switch {
		case len(tc.Mocks.Models[id]) == 0:
			bad(path, "an empty list of answers scripts nothing")
		case nested && !ids[outer]:
			bad(path, "%s has no step %s", c.Name, outer)
		case !nested && !ids[id]:
			bad(path, "%s has no step %s", c.Name, id)
		case !nested && byID[id].Kind.Deterministic():
			bad(path, "step %s is a %s step: it asks no model (mock its result under mocks.steps)", id, byID[id].Kind)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(tc.Expect.Steps)) {
		path := []string{"expect", "steps", id}
		switch {
		case !ids[id]:
			bad(path, "%s has no step %s", c.Name, id)
		case tc.Expect.Steps[id] == nil:
			bad(path, "an empty expectation checks nothing")
		}
	}
	checkTrajectories(tc, c, bad)
	for _, st := range slices.Sorted(maps.Keys(tc.Mocks.Decisions)) {
		path := []string{"mocks", "decisions", st}
		if c.Workflow == nil {
			bad(path, "%s is not a workflow", c.Name)
			continue
		}
		if !states[st] {
			bad(path, "%s has no state %s", c.Name, st)
			continue
		}
		for _, d := range tc.Mocks.Decisions[st] {
			if problem := decisionProblem(c, st, d.Transition); problem != "" {
				bad(path, "%s", problem)
			}
		}
	}
	for _, in := range slices.Sorted(maps.Keys(tc.Inputs)) {
		if c.Input(in) == nil && c.Workflow == nil {
			errs = append(errs, fmt.Errorf("%s: case %q: inputs.%s: %s has no input %s", at("inputs", in), tc.Name, in, c.Name, in))
		}
	}
	if len(errs) == 0 && tc.Expect.Status != string(refused) && (tc.Expect.ExitCode == nil || *tc.Expect.ExitCode != 2) {
		// inputs the chain refuses are a slip of the test, unless the
		// case is about that refusal
		inputs := map[string]string{}
		for k, v := range tc.Inputs {
			inputs[k] = string(v)
		}
		if err := run.CheckInputs(run.Request{Chain: c, Inputs: inputs}); err != nil {
			errs = append(errs, fmt.Errorf("%s: case %q: inputs: %v (a case about this refusal expects status: refused)", at("inputs"), tc.Name, err))
		}
	}
	return errors.Join(errs...)
}

// decisionProblem says why state st cannot take transition t at a
// decision point ("" when it can).
func decisionProblem(c *chain.Chain, st, t string) string {
	for _, s := range c.Workflow.States {
		if s.Name != st {
			continue
		}
		var names []string
		point := false
		for _, tr := range s.Transitions {
			names = append(names, tr.Name)
			point = point || tr.Actor != chain.ActorDeterministic
		}
		switch {
		case !point:
			return "state " + st + " is no decision point: its transitions are all deterministic"
		case !slices.Contains(names, t):
			return fmt.Sprintf("state %s has no transition %s (it has: %s)", st, t, strings.Join(names, ", "))
		}
	}
	return ""
}

// tempDir is the test run's own directory, removed when it ends.
func tempDir() (string, func(), error) {
	dir, err := os.MkdirTemp("", "chainrun-test-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}
