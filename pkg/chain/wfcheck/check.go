package wfcheck

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

func init() { chain.RegisterWorkflowCheck(check) }

// checker is the validation of one workflow: what the step validator
// lets it see (chain.WorkflowChecker: steps, templates, inputs, the
// workflow's variables), with the findings' Diags and the chain at hand.
type checker struct {
	chain.WorkflowChecker
	d *yamlpos.Diags
	c *chain.Chain
}

// check checks a state workflow and compiles its executors and tasks with
// the step validator, so that every kind behaves as it does in a DAG
// chain.
func check(cc chain.WorkflowChecker) {
	d, c := cc.Diags(), cc.Chain()
	w := c.Workflow
	v := &checker{WorkflowChecker: cc, d: d, c: c}
	if !chain.ValidChainName(c.Name) {
		d.Errorf(c.Pos, "workflow name %q: use letters, digits, '-', '_' and '.'", c.Name)
	}
	v.inputSchema()
	v.Inputs()
	if len(w.States) == 0 {
		d.Errorf(at(w, "states", c.Pos), "workflow %q: states are required", c.Name)
		return
	}
	if w.MaxChainDepth < 1 {
		d.Errorf(at(w, "maxChainDepth", c.Pos), "workflow %q: maxChainDepth must be 1 or more (default %d)", c.Name, chain.DefaultMaxChainDepth)
	}
	if _, written := w.FieldPos["maxChainDepth"]; written && w.MaxChainDepth > chain.MaxChainDepthLimit {
		d.Errorf(at(w, "maxChainDepth", c.Pos), "workflow %q: maxChainDepth %d is more than %d, the most transitions one call may take on its own", c.Name, w.MaxChainDepth, chain.MaxChainDepthLimit)
	}
	for name := range w.Counters {
		v.SetVar(name)
	}
	if b := c.Budget; b != nil && (b.MaxTokens < 0 || b.MaxLLMCalls < 0) {
		d.Errorf(at(w, "budget", c.Pos), "budget: max_tokens and max_llm_calls cannot be negative")
	}
	if b := c.Budget; b != nil && !(b.MaxCostUSD >= 0 && b.MaxCostUSD < math.Inf(1)) {
		d.Errorf(at(w, "budget", c.Pos), "budget: max_cost_usd %v: want 0 (no cap) or more US dollars", b.MaxCostUSD)
	}
	for _, s := range w.States {
		v.stateShape(s)
	}
	v.checkWorkflowParts()
	switch {
	case w.InitialState == "":
		d.Errorf(c.Pos, "workflow %q: initialState is required (the state a run begins in)", c.Name)
	case w.State(w.InitialState) == nil:
		d.Errorf(at(w, "initialState", c.Pos), "workflow %q: initialState %q is not a state%s", c.Name, w.InitialState, spell.DidYouMean(w.InitialState, stateNames(w)))
	}
	// a state's error hides no reference: every executor, task and
	// condition is compiled in the same pass
	for _, s := range w.States {
		v.stateRefs(s)
	}
	v.ToolDefs()
	if c.Output != "" && !v.HasVar(c.Output) && c.Output != "context" {
		d.Errorf(c.OutputPos, "output %q names no transition, task or compose variable%s", c.Output, spell.DidYouMean(c.Output, v.Vars()))
	}
	if d.Blocking() == 0 {
		v.reachability()
	}
}

// at returns where a workflow key was written, or fallback.
func at(w *chain.Workflow, field string, fallback chain.Pos) chain.Pos {
	if p, ok := w.FieldPos[field]; ok {
		return p
	}
	return fallback
}

// stateNames are the workflow's states' names, for did-you-mean.
func stateNames(w *chain.Workflow) []string {
	out := make([]string, len(w.States))
	for i, s := range w.States {
		out[i] = s.Name
	}
	return out
}

// stateShape checks one state's own fields and its executors' kinds, and
// records the variables its transitions and task produce.
func (v *checker) stateShape(s *chain.State) {
	d, w := v.d, v.c.Workflow
	switch {
	case !chain.ValidStepID(s.Name):
		d.Errorf(s.Pos, "state %q: a state name is letters, digits, '-' and '_'", s.Name)
	case s.Name == chain.End:
		d.Errorf(s.Pos, "a state cannot be named %q: goto: end ends the run", chain.End)
	}
	hasBranches := s.Branches != nil || s.FieldPos["transition"] != (chain.Pos{})
	if hasBranches && len(s.Branches) == 0 && s.Task != nil && !s.BranchesUnread() {
		d.Errorf(s.At("transition"), "state %q: transition.branches is empty: the task's result would lead nowhere", s.Name)
	}
	switch {
	case s.Terminal && len(s.Transitions) > 0 && s.Task == nil && !hasBranches:
		// mcp-flowgate ends a run there, offering none of them: a
		// warning, not a refusal
		d.Warnf(s.At("terminal"), "state %q is terminal: its transitions are never offered, as in mcp-flowgate (a run ends there): drop them, or drop terminal: true", s.Name)
	case s.Terminal && (len(s.Transitions) > 0 || s.Task != nil || hasBranches):
		d.Errorf(s.At("terminal"), "state %q is terminal: it cannot also have transitions or a task", s.Name)
	case len(s.Transitions) > 0 && (s.Task != nil || hasBranches):
		d.Errorf(s.At("task"), "state %q: use named transitions or a task with transition.branches, not both", s.Name)
	case s.Task != nil && !hasBranches:
		d.Errorf(s.At("task"), "state %q: a task needs transition.branches saying where its result leads", s.Name)
	case s.Task == nil && hasBranches && s.FieldPos["task"] == (chain.Pos{}):
		d.Errorf(s.At("transition"), "state %q: transition.branches need a task whose result they branch on", s.Name)
	case !s.Terminal && len(s.Transitions) == 0 && s.Task == nil && s.FieldPos["task"] == (chain.Pos{}):
		// mcp-flowgate warns of such a state (validate.rs), and a run
		// that reaches it stays there, unless its timeout moves it
		d.Warnf(s.Pos, "state %q has no way out: a run that reaches it waits there%s; add transitions (or a task with branches), or mark it terminal: true", s.Name, timeoutMovesIt(w))
	}
	outcomes := []string{chain.OutcomeSucceeded, chain.OutcomeFailed, chain.OutcomeCancelled}
	switch {
	case s.Outcome != "" && !slices.Contains(outcomes, s.Outcome):
		d.Errorf(s.At("outcome"), "state %q: outcome is succeeded, failed or cancelled, not %q%s", s.Name, s.Outcome, spell.DidYouMean(s.Outcome, outcomes))
	case s.Outcome != "" && !s.Terminal:
		d.Errorf(s.At("outcome"), "state %q: outcome applies to a terminal state (add terminal: true)", s.Name)
	}
	if s.Goal == "" && s.Guidance == "" && !s.Terminal && !s.Automatic() && len(s.Transitions) > 0 {
		d.Warnf(s.Pos, "state %q is a decision point with no goal or guidance: whoever decides sees only the links", s.Name)
	}
	for _, t := range s.Transitions {
		if !chain.ValidStepID(t.Name) {
			d.Errorf(t.Pos, "transition %q: a transition name is letters, digits, '-' and '_'", t.Name)
		}
		if !slices.Contains(actors, t.Actor) {
			// mcp-flowgate decides any actor but deterministic and human
			// as an agent's: read so, with a warning (its state's
			// actor, inherited, is warned of once, on the state)
			if _, own := t.FieldPos["actor"]; own {
				d.Warnf(t.At("actor"), "transition %q: actor %q is read as agent: actor is deterministic, agent or human, and mcp-flowgate decides any other as an agent's%s", t.Name, t.Actor, spell.DidYouMean(t.Actor, actors))
			}
			t.Actor = chain.ActorAgent
		}
		fireCapWarnings(d, t)
		switch {
		case t.Target == "":
			d.Errorf(t.Pos, "transition %q: target is required (the state it leads to)", t.Name)
		case w.State(t.Target) == nil:
			d.Errorf(t.At("target"), "transition %q: target %q is not a state%s", t.Name, t.Target, spell.DidYouMean(t.Target, stateNames(w)))
		}
		if t.Executor != nil {
			v.executor(t.Executor)
		}
		v.checkTransitionBranches(t)
	}
	v.onEnterShape(s)
	if s.Task != nil {
		v.executor(s.Task)
		if s.Task.Kind == chain.KindHTTP && s.Task.HTTP().FailOnStatus == nil {
			// the status is what the branches decide on, not a failure
			no := false
			chain.Own[chain.HTTPFields](s.Task).FailOnStatus = &no
		}
	}
	v.branchShape(s)
	if s.Timeout > 0 || s.OnTimeout != "" {
		switch {
		case s.TimeoutUnread():
		case s.Timeout == 0:
			d.Errorf(s.At("on_timeout"), "state %q: on_timeout needs a timeout (a duration such as 30m)", s.Name)
		case s.OnTimeout == "":
			d.Errorf(s.At("timeout"), "state %q: timeout needs on_timeout, the transition taken once it has passed", s.Name)
		case s.Transition(s.OnTimeout) == nil:
			var names []string
			for _, t := range s.Transitions {
				names = append(names, t.Name)
			}
			d.Errorf(s.At("on_timeout"), "state %q: on_timeout %q is not one of its transitions%s", s.Name, s.OnTimeout, spell.DidYouMean(s.OnTimeout, names))
		case s.Automatic():
			d.Warnf(s.At("timeout"), "state %q: timeout only applies to a decision point; this state moves on by itself", s.Name)
		}
	}
	v.deterministicChoice(s)
}

// deterministicChoice warns about a state whose deterministic transitions
// cannot be told apart: with no conditions or guards, more than one is viable and
// the run fails there.
func (v *checker) deterministicChoice(s *chain.State) {
	if !s.Automatic() || len(s.Transitions) < 2 {
		return
	}
	var open []string
	for _, t := range s.Transitions {
		if t.Condition == "" && len(t.Guards) == 0 {
			open = append(open, t.Name)
		}
	}
	if len(open) > 1 {
		v.d.Warnf(s.Pos, "state %q: deterministic transitions %s have no condition or guards, so more than one is viable and a run fails there; give each a condition or guards",
			s.Name, strings.Join(open, ", "))
	}
}

// executor checks a transition's executor or a state's task as a step,
// with messages that name it as the user wrote it.
func (v *checker) executor(s *chain.Step) {
	defer v.fallbacks(s)
	name := v.Subject(s)
	for _, f := range []string{"id", "depends_on", "early_exit_if"} {
		if _, set := s.FieldPos[f]; set {
			why := map[string]string{
				"id":            "it is named after its transition or state",
				"depends_on":    "states and transitions set the order",
				"early_exit_if": "end the run with a terminal state or goto: end",
			}[f]
			v.d.Errorf(s.At(f), "%s: %s does not apply here: %s", name, f, why)
		}
	}
	if !v.StepKind(s, name) {
		return
	}
	if s.OutputVar == "" {
		s.OutputVar = s.ID
		if s.Primary() != s {
			// whichever candidate answers, the transition's output is
			// where the primary's would be
			s.OutputVar = s.Primary().OutputVar
		}
	} else if !chain.IsIdentifier(s.OutputVar) {
		v.d.Errorf(s.At("output_var"), "%s: output_var %q: a variable name is letters, digits and '_'", name, s.OutputVar)
	}
	if len(s.Agent().ConditionKey) > 0 && s.Kind != chain.KindAgent {
		v.d.Errorf(s.At("condition_key"), "%s: condition_key lists the keywords a model chooses from: it needs kind agent", name)
	}
	v.SetVar(s.OutputVar)
	if s.Kind == chain.KindHTTP {
		v.SetVar(s.OutputVar + "_status")
	}
	if s.Primary() != s {
		return // its primary holds the name
	}
	if prev := v.Claim(s); prev != nil && s.FieldPos["output_var"] == (chain.Pos{}) && prev.FieldPos["output_var"] == (chain.Pos{}) {
		v.d.Warnf(s.Pos, "%s and the one at line %d share the name %s: both write the variable %s and events name both alike; give one an output_var", name, prev.Pos.Line, s.ID, s.ID)
	}
}

func (v *checker) branchShape(s *chain.State) {
	w := v.c.Workflow
	seenDefault := false
	for i, b := range s.Branches {
		prefix := fmt.Sprintf("state %q: branch %d", s.Name, i+1)
		if seenDefault {
			v.d.Warnf(b.Pos, "%s comes after a default branch and is never taken", prefix)
		}
		switch b.Operator {
		case chain.OpEquals, chain.OpNotEquals, chain.OpContains, chain.OpNotContains, chain.OpStartsWith, chain.OpEndsWith:
		case chain.OpEdgeTraversed:
			v.edgeBranch(prefix, b)
		case chain.OpRange:
			lo, hi, err := wfpart.ParseRange(b.When)
			if err != nil {
				v.d.Errorf(b.Pos, "%s: %v", prefix, err)
			}
			b.SetRange(lo, hi)
		case chain.OpDefault:
			seenDefault = true
		case "":
			v.d.Errorf(b.Pos, "%s: operator is required (%s)", prefix, strings.Join(wfpart.Operators(), ", "))
		default:
			v.d.Errorf(b.Pos, "%s: unknown operator %q%s; operators are %s", prefix, b.Operator, spell.DidYouMean(b.Operator, wfpart.Operators()), strings.Join(wfpart.Operators(), ", "))
		}
		switch {
		case b.Goto == "":
			v.d.Errorf(b.Pos, "%s: goto is required (a state, or end)", prefix)
		case b.Goto != chain.End && w.State(b.Goto) == nil:
			v.d.Errorf(b.Pos, "%s: goto %q is not a state (or end)%s", prefix, b.Goto, spell.DidYouMean(b.Goto, append(stateNames(w), chain.End)))
		}
		if cp := b.Compose; cp != nil {
			v.compose(prefix, b)
		}
	}
	v.onFailure(s)
	if len(s.Branches) > 0 && !seenDefault {
		v.d.Warnf(s.At("transition"), "state %q: no default branch: when no branch matches the task's result, the run fails", s.Name)
	}
	if s.Task != nil && len(s.Task.Agent().ConditionKey) == 0 {
		s.Task.SetCutIsResult(takesCut(s.Branches))
	}
	if seenDefault && s.Task != nil {
		// an answer naming no keyword is the default branch's to take
		s.Task.SetKeywordFallsThrough()
	}
}

// takesCut reports whether a branch that compares a task's result, not
// the default one, takes an answer cut at max_tokens.
func takesCut(branches []*chain.Branch) bool {
	for _, b := range branches {
		if b.Operator != chain.OpDefault && b.Operator != chain.OpEdgeTraversed && b.Matches(chain.FinishCut) {
			return true
		}
	}
	return false
}

// stateRefs compiles the executors, tasks and conditions of a state once
// every variable the workflow produces is known.
func (v *checker) stateRefs(s *chain.State) {
	v.stateTexts(s)
	for _, t := range s.Transitions {
		if t.Executor != nil {
			v.Compile(t.Executor)
		}
		if t.Condition != "" {
			t.SetCond(v.transitionCondition(t))
		}
		v.argSchema(t)
		v.compilePrefill(t)
		v.titleText(t)
	}
	if s.Task != nil {
		v.Compile(s.Task)
	}
	if s.OnEnter != nil && s.OnEnter.Executor != nil {
		v.Compile(s.OnEnter.Executor)
	}
}

func (v *checker) transitionCondition(t *chain.Transition) *chain.Expression {
	e, err := v.Condition(t.Condition)
	var unk *interp.UnknownNamesError
	if errors.As(err, &unk) {
		for _, name := range unk.Names {
			v.d.Errorf(t.At("condition"), "transition %q: condition %q: %s", t.Name, t.Condition, v.NameCheck(name))
		}
		return nil
	}
	if err != nil {
		v.d.Errorf(t.At("condition"), "transition %q: condition %q %v", t.Name, t.Condition, err)
		return nil
	}
	for _, f := range e.InputFields {
		if !v.HasInput(f) {
			v.d.Errorf(t.At("condition"), "transition %q: condition %q: no input is named %s%s", t.Name, t.Condition, f, spell.DidYouMean(f, v.InputNames()))
		}
	}
	return e
}

// timeoutMovesIt says, for a message about a state with no way out,
// whether the workflow's timeout would move a run from it.
func timeoutMovesIt(w *chain.Workflow) string {
	if w.Timeout > 0 && w.OnTimeout != "" {
		return " until its timeoutMs moves it to " + w.OnTimeout
	}
	return " for ever, as in mcp-flowgate"
}
