package chain

import (
	"slices"
)

// ParallelFields configure a parallel step (mcp-flowgate's `kind:
// parallel` executor): its branches, each a step of any kind, run at
// once inside one transition; join says when the whole succeeds and
// on_branch_failure whether a failed branch stops the others. Its output
// is {branches: [{ok, index, output|error}], summary: {n, ok_count,
// failed_count, cancelled_count, verdict, ...}}.
type ParallelFields struct {
	// Branches are the steps of a static fan-out; FanOut the template of
	// a dynamic one (branches: {for_each, where, do}).
	Branches        []*Step `yaml:"branches" doc:"The branches: a list of steps of any kind, or {for_each: \"$.context.list\", where: \"$.value != ''\", do: STEP} for one branch per item (read as {item} and $.branch.value, $.branch.index)."`
	FanOut          *FanOut `yaml:"-"`
	Join            any     `yaml:"join" doc:"When the whole succeeds: all (default), any, {at_least: K}, {percent: P}, or {expression: \"$.ok_count >= 2\"} over n, ok_count, failed_count, cancelled_count and branches."`
	OnBranchFailure string  `yaml:"on_branch_failure" doc:"bail (default): the first failed branch stops the others; continue: every branch runs, then join decides."`
	MaxConcurrency  int     `yaml:"max_concurrency" doc:"Most branches running at once (required from 10 branches on)."`
	TotalTimeoutMS  int     `yaml:"total_timeout_ms" doc:"Time limit of the whole fan-out (or pipeline) in milliseconds."`
	// MaxRecursionDepth caps parallel steps nested in branches.
	MaxRecursionDepth int `yaml:"max_recursion_depth" doc:"Most parallel steps nested inside one another (default 3)."`

	join *Join
}

// FanOut is a parallel step's dynamic branches: one run of Do per item
// of the list ForEach selects that Where keeps.
type FanOut struct {
	ForEach string
	Where   string
	Do      *Step
	Pos     Pos

	forEach *Mapped
	where   *Expression
}

// ForEachList is the compiled JSONPath of the list.
func (f *FanOut) ForEachList() *Mapped { return f.forEach }

// Filter is the compiled where expression (over value and index), nil
// when there is none.
func (f *FanOut) Filter() *Expression { return f.where }

// Join is a parallel step's join condition, compiled.
type Join struct {
	// Mode is all, any, at_least, percent or expression.
	Mode    string
	AtLeast int
	Percent int
	// Expr decides expression joins over n, ok_count, failed_count,
	// cancelled_count and branches.
	Expr *Expression
}

// Join modes.
const (
	JoinAll        = "all"
	JoinAny        = "any"
	JoinAtLeast    = "at_least"
	JoinPercent    = "percent"
	JoinExpression = "expression"
)

// OnFailureBail and OnFailureContinue are a parallel step's
// on_branch_failure.
const (
	OnFailureBail     = "bail"
	OnFailureContinue = "continue"
)

// UngovernedBranches is mcp-flowgate's limit: from this many branches on,
// max_concurrency must be set.
const UngovernedBranches = 10

// DefaultMaxRecursionDepth is how deep parallel steps nest by default.
const DefaultMaxRecursionDepth = 3

// JoinRule is the step's compiled join (all when none was written).
func (s *Step) JoinRule() *Join {
	if s.Parallel().join == nil {
		return &Join{Mode: JoinAll}
	}
	return s.Parallel().join
}

// RecursionDepth is the step's max_recursion_depth, or the default.
func (s *Step) RecursionDepth() int {
	if s.Parallel().MaxRecursionDepth > 0 {
		return s.Parallel().MaxRecursionDepth
	}
	return DefaultMaxRecursionDepth
}

// Nested are the steps written inside the step: those its kind's unit
// names (a parallel step's branches or its do: step, a pipeline's steps,
// a loop's step_template, a debate's debaters), and the model step of a
// merge or a debate.
func (s *Step) Nested() []*Step {
	var held []*Step
	if u := unitOf(s.Kind); u != nil && u.Nested != nil {
		held = u.Nested(s)
	}
	var out []*Step
	for _, n := range append(slices.Clone(held), s.ModelStep()) {
		if n != nil {
			out = append(out, n)
		}
	}
	return out
}

// Walk calls fn for each step of the chain and every step nested in one
// (a parallel step's branches), outermost first, then the steps of its
// handlers.
func (c *Chain) Walk(fn func(*Step)) {
	var visit func(s *Step)
	visit = func(s *Step) {
		fn(s)
		for _, n := range s.Nested() {
			visit(n)
		}
		if s.parent != nil {
			// a nested step's fallbacks (an executor's are steps of c)
			for _, fb := range s.Fallbacks {
				visit(fb)
			}
		}
	}
	for _, s := range c.Steps {
		visit(s)
	}
	for _, s := range c.HandlerSteps() {
		visit(s)
	}
}

// SetJoin keeps the join rule a parallel step's check worked out.
func (p *ParallelFields) SetJoin(j *Join) { p.join = j }

// SetForEach keeps a fan-out's compiled for_each.
func (f *FanOut) SetForEach(m *Mapped) { f.forEach = m }

// SetWhere keeps a fan-out's compiled where.
func (f *FanOut) SetWhere(e *Expression) { f.where = e }

// MarkFanned marks the do: step of a fan-out, run once per item.
func (s *Step) MarkFanned() { s.fanned = true }
