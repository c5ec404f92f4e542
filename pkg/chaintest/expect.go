package chaintest

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Expect is what a case's run must show. Only what is written is
// checked.
type Expect struct {
	// Status is the run's status (succeeded, failed, paused, …) and
	// ExitCode the code chainrun run would exit with.
	Status   string `yaml:"status"`
	ExitCode *int   `yaml:"exit_code"`
	// Output is the chain's output; Error the run's error text.
	Output Matcher `yaml:"output"`
	Error  Matcher `yaml:"error"`
	// Vars are the run's variables at its end, by name.
	Vars map[string]*Matcher `yaml:"vars"`
	// Steps are expectations of single steps, by id.
	Steps map[string]*StepExpect `yaml:"steps"`
	// Path are the steps that ran (not skipped, not handlers), in an
	// order the run kept:
	// a step may be listed before another only if it did not start after
	// the other finished.
	Path []string `yaml:"path"`
	// Transitions are a workflow's transitions taken, in order, and
	// State the state it stopped at.
	Transitions []string `yaml:"transitions"`
	State       string   `yaml:"state"`
	// States are the states a workflow passed through and Decisions the
	// choices made at its decision points (expect_workflow.go).
	States    []string         `yaml:"states"`
	Decisions []DecisionExpect `yaml:"decisions"`
	// ModelCalls is the number of model requests the run sent (retries
	// included); MaxTokens and MaxCostUSD are budgets its model use must
	// stay within.
	ModelCalls *int     `yaml:"model_calls"`
	MaxTokens  *int     `yaml:"max_tokens"`
	MaxCostUSD *float64 `yaml:"max_cost_usd"`
	// MaxLatencyMS bounds the run's wall time.
	MaxLatencyMS *int64 `yaml:"max_latency_ms"`
}

// StepExpect is what one step must show.
type StepExpect struct {
	Status     string  `yaml:"status"`
	Attempts   *int    `yaml:"attempts"`
	ModelCalls *int    `yaml:"model_calls"`
	ToolCalls  *int    `yaml:"tool_calls"`
	Decision   string  `yaml:"decision"`
	Output     Matcher `yaml:"output"`
	Error      Matcher `yaml:"error"`
	// The step's trajectory, cost and time (expect_trajectory.go).
	ToolsCalled    *ToolsExpect `yaml:"tools_called"`
	ToolsNotCalled []string     `yaml:"tools_not_called"`
	MaxTurns       *int         `yaml:"max_turns"`
	MaxCostUSD     *float64     `yaml:"max_cost_usd"`
	MaxLatencyMS   *int64       `yaml:"max_latency_ms"`
}

// exitCode is the code chainrun run exits with for a run's status.
func exitCode(status record.Status) int {
	switch status {
	case record.Succeeded:
		return 0
	case record.Paused:
		return 3
	case record.Interrupted:
		return 130
	}
	return 1
}

// checker collects what fails one case. Golden files are read from dir
// (the test file's directory, as an os.Root: nothing leads out of it),
// or written there when update is set.
type checker struct {
	failures []string
	// assertions are every check made, held or not (assertion.go).
	assertions []Assertion
	dir        *os.Root
	update     bool
	// updated are the golden files written.
	updated []string
	// prices price a step's model calls, for its max_cost_usd.
	prices *llm.Prices
	// grading grades the model-graded matchers.
	grading *Grading
	// explained is set when a failure already says why the run went
	// wrong (a miss): the run's error is not repeated.
	explained bool
}

func (k *checker) failf(format string, args ...any) {
	k.failures = append(k.failures, fmt.Sprintf(format, args...))
}

// match checks a matcher, naming what it checked; its golden file is
// compared, or rewritten with --update. A graded matcher's score and
// reason are kept on the check's Assertion.
func (k *checker) match(what string, m *Matcher, v any) {
	if m == nil || !m.Set() {
		return
	}
	var golden *string
	if m.Golden != "" {
		if k.update {
			if err := writeGolden(k.dir, m.Golden, render.Text(v)); err != nil {
				k.assert(what, fmt.Errorf("writing golden file %s: %v", m.Golden, goldenError(err)), nil)
			} else {
				k.updated = append(k.updated, filepath.Join(k.dir.Name(), m.Golden))
			}
		} else {
			data, err := fsutil.ReadRegularIn(k.dir, m.Golden, maxGolden)
			if err != nil {
				k.assert(what, fmt.Errorf("golden file %s: %v (%s test --update writes it)", m.Golden, goldenError(err), response.Command()), nil)
				return
			}
			text := string(data)
			golden = &text
		}
	}
	verdict, err := m.Judge(v, golden, k.grading.For(what))
	var graded *Verdict
	if verdict.Score != nil || verdict.Reason != "" {
		graded = &verdict
	}
	k.assert(what, err, graded)
	if err != nil {
		k.assertions[len(k.assertions)-1].Want, k.assertions[len(k.assertions)-1].Got = m.wantGot(v, golden)
	}
}

// maxGolden bounds a golden file, read whole.
const maxGolden = 256 << 20

// writeGolden writes a golden file inside dir, its directory made as
// needed, atomically and through the root: a link on the way that leads
// out of the test file's directory is refused, never followed.
func writeGolden(dir *os.Root, name, text string) error {
	if d := filepath.Dir(name); d != "." {
		if err := dir.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return fsutil.WriteFileIn(dir, name, []byte(text), 0)
}

// goldenError words an error of a golden file's read or write.
func goldenError(err error) error {
	var nr *fsutil.NotRegularError
	switch {
	case fsutil.Escapes(err):
		return errors.New("a symbolic link on its path leads out of the test file's directory, where golden files stay")
	case errors.As(err, &nr):
		return fmt.Errorf("it is %s, not a regular file", fsutil.Kind(nr.Mode))
	}
	return unwrapPath(err)
}

// unwrapPath drops the path an fs error repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// check compares a case's run with its expectations.
func (k *checker) check(e *Expect, c *chain.Chain, o *outcome) {
	res := o.res
	if e.Status != "" {
		k.hold("status", string(res.Status) == e.Status, "status: want %s, got %s%s", e.Status, res.Status, k.errorNote(res))
	}
	if e.ExitCode != nil {
		k.hold("exit_code", *e.ExitCode == o.exit, "exit code: want %d, got %d%s", *e.ExitCode, o.exit, k.errorNote(res))
	}
	k.match("output", &e.Output, res.Output)
	k.match("error", &e.Error, res.Error)
	for _, name := range slices.Sorted(maps.Keys(e.Vars)) {
		v, ok := res.Vars[name]
		if !ok {
			k.hold("vars."+name, false, "vars.%s: the run has no variable %s", name, name)
			continue
		}
		k.match("vars."+name, e.Vars[name], v)
	}
	for _, id := range slices.Sorted(maps.Keys(e.Steps)) {
		k.step(id, e.Steps[id], c, o)
	}
	if e.Path != nil {
		p := pathProblem(e.Path, c, o)
		k.hold("path", p == "", "%s", p)
	}
	if e.Transitions != nil || e.State != "" {
		var taken []string
		state := ""
		if res.WorkflowResult != nil {
			for _, t := range res.Chain {
				taken = append(taken, t.Transition)
			}
			state = res.State
		}
		if e.Transitions != nil {
			k.hold("transitions", slices.Equal(taken, e.Transitions), "transitions: want [%s], got [%s]", strings.Join(e.Transitions, ", "), strings.Join(taken, ", "))
		}
		if e.State != "" {
			k.hold("state", state == e.State, "state: want %s, got %q", e.State, state)
		}
	}
	k.workflow(e, o)
	if e.MaxLatencyMS != nil {
		k.hold("max_latency_ms", o.runMS() <= *e.MaxLatencyMS, "max_latency_ms: the run took %d ms, over %d", o.runMS(), *e.MaxLatencyMS)
	}
	if e.ModelCalls != nil {
		k.hold("model_calls", res.Usage.LLMCalls == *e.ModelCalls, "model_calls: want %d, got %d", *e.ModelCalls, res.Usage.LLMCalls)
	}
	if tokens := res.Usage.InputTokens + res.Usage.OutputTokens; e.MaxTokens != nil {
		k.hold("max_tokens", tokens <= *e.MaxTokens, "max_tokens: the run used %d tokens (%d in, %d out), over %d", tokens, res.Usage.InputTokens, res.Usage.OutputTokens, *e.MaxTokens)
	}
	if e.MaxCostUSD != nil {
		if o.unpriced != "" {
			k.hold("max_cost_usd", false, "max_cost_usd: no price is known for %s: add it under prices: in config", o.unpriced)
		} else {
			k.hold("max_cost_usd", o.cost <= *e.MaxCostUSD, "max_cost_usd: the run cost $%.6f, over $%g", o.cost, *e.MaxCostUSD)
		}
	}
}

// errorNote is the run's error, for a status that was not the one
// expected.
func (k *checker) errorNote(res *record.Result) string {
	if res.Error == "" || k.explained {
		return ""
	}
	return " (" + res.Error + ")"
}

// step checks one step's expectations.
func (k *checker) step(id string, e *StepExpect, c *chain.Chain, o *outcome) {
	var sr *record.StepResult
	for _, list := range [][]record.StepResult{o.res.Steps, o.res.Handlers} {
		for i := range list {
			if list[i].ID == id {
				sr = &list[i]
			}
		}
	}
	what := "steps." + id
	if sr == nil {
		k.hold(what, false, "steps.%s: the step did not run (not in the result)", id)
		return
	}
	if e.Status != "" {
		why := sr.Error
		if why == "" {
			why = sr.Reason
		}
		if why != "" && !k.explained {
			why = " (" + why + ")"
		} else {
			why = ""
		}
		k.hold(what+".status", string(sr.Status) == e.Status, "%s.status: want %s, got %s%s", what, e.Status, sr.Status, why)
	}
	if e.Attempts != nil {
		k.hold(what+".attempts", sr.Attempts == *e.Attempts, "%s.attempts: want %d, got %d", what, *e.Attempts, sr.Attempts)
	}
	calls := 0
	if sr.Usage != nil {
		calls = sr.Usage.LLMCalls
	}
	if e.ModelCalls != nil {
		k.hold(what+".model_calls", calls == *e.ModelCalls, "%s.model_calls: want %d, got %d", what, *e.ModelCalls, calls)
	}
	if e.ToolCalls != nil {
		k.hold(what+".tool_calls", sr.ToolCalls == *e.ToolCalls, "%s.tool_calls: want %d, got %d", what, *e.ToolCalls, sr.ToolCalls)
	}
	if e.Decision != "" {
		k.hold(what+".decision", sr.Decision == e.Decision, "%s.decision: want %s, got %q", what, e.Decision, sr.Decision)
	}
	if e.Output.Set() {
		s := findStep(c, id)
		if s == nil || s.OutputVar == "" {
			k.hold(what+".output", false, "%s.output: the step keeps no output (no output_var)", what)
		} else {
			k.match(what+".output", &e.Output, o.res.Vars[s.OutputVar])
		}
	}
	k.match(what+".error", &e.Error, sr.Error)
	k.trajectory(what, id, e, o, k.prices)
}

// pathProblem says how the run broke the expected path ("" when it
// kept it): the steps that ran must be those listed, in an order the run
// kept: for a DAG chain, no step listed before one it depends on
// (independent steps may run in either order, so their order is not
// checked); for a workflow, whose steps run one at a time, the order
// they ran in.
func pathProblem(want []string, c *chain.Chain, o *outcome) string {
	if c.Workflow != nil {
		if got := o.sequence(); !slices.Equal(got, want) {
			return fmt.Sprintf("path: want [%s], the steps ran in this order: [%s]", strings.Join(want, ", "), strings.Join(got, ", "))
		}
		return ""
	}
	for i, id := range want {
		if slices.Contains(want[:i], id) {
			return fmt.Sprintf("path: %s is listed twice; a step of a DAG chain runs once", id)
		}
	}
	ran := o.ran()
	var missing, extra []string
	for _, id := range want {
		if !ran[id] {
			missing = append(missing, id)
		}
	}
	for id := range ran {
		if !slices.Contains(want, id) {
			extra = append(extra, id)
		}
	}
	slices.Sort(extra)
	if len(missing) > 0 || len(extra) > 0 {
		msg := "path: want [" + strings.Join(want, ", ") + "]"
		if len(missing) > 0 {
			msg += "; did not run: " + strings.Join(missing, ", ")
		}
		if len(extra) > 0 {
			msg += "; ran too: " + strings.Join(extra, ", ")
		}
		return msg
	}
	g := c.Graph()
	for i := range want {
		for j := i + 1; j < len(want); j++ {
			if g.DependsOn(want[i], want[j]) {
				return fmt.Sprintf("path: %s is listed before %s, but it depends on %s", want[i], want[j], want[j])
			}
		}
	}
	return ""
}

// findStep finds a step by id anywhere in the chain: nested steps, a
// workflow's tasks and transition executors.
func findStep(c *chain.Chain, id string) *chain.Step {
	var found *chain.Step
	eachStep(c, func(s *chain.Step) {
		if s.ID == id && found == nil {
			found = s
		}
	})
	return found
}

// eachStep calls fn for every step of the chain, nested ones, its
// lifecycle handlers' and a workflow's tasks and executors included.
func eachStep(c *chain.Chain, fn func(*chain.Step)) {
	c.Walk(fn)
	for _, s := range c.HandlerSteps() {
		fn(s)
	}
	if c.Workflow == nil {
		return
	}
	for _, st := range c.Workflow.States {
		if st.Task != nil {
			fn(st.Task)
		}
		for _, t := range st.Transitions {
			if t.Executor != nil {
				fn(t.Executor)
			}
		}
	}
}
