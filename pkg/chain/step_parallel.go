package chain

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
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

func init() {
	Register(Unit{
		Kind:    KindParallel,
		Order:   100,
		Body:    reflect.TypeFor[ParallelFields](),
		Check:   checkParallel,
		Compile: compileParallel,
	})
}

// decodeBranches reads a parallel step's branches: a list of steps, or
// {for_each, where, do}.
func decodeParallelBranches(d *yamlpos.Diags, s *Step, v *yaml.Node, prefix string) {
	prefix += "branches: "
	switch v.Kind {
	case yaml.SequenceNode:
		Own[ParallelFields](s).Branches = []*Step{}
		for _, n := range v.Content {
			if b := decodeNested(d, yamlpos.Deref(n), prefix, "a branch"); b != nil {
				Own[ParallelFields](s).Branches = append(s.Parallel().Branches, b)
			}
		}
	case yaml.MappingNode:
		f := &FanOut{Pos: yamlpos.Of(v)}
		for _, p := range yamlpos.MappingPairs(d, v, prefix) {
			val := yamlpos.Deref(p.Value)
			switch p.Key.Value {
			case "for_each":
				yamlpos.DecodeInto(d, val, &f.ForEach)
			case "where":
				yamlpos.DecodeInto(d, val, &f.Where)
				if strings.TrimSpace(f.Where) == "" {
					// mcp-flowgate refuses it too (INVALID_PARALLEL_CONFIG)
					d.Errorf(yamlpos.Of(val), "%sbranches.where is empty: write the expression that keeps an item ($.value, $.index), or leave where out", prefix)
				}
			case "do":
				if val.Kind != yaml.MappingNode {
					d.Errorf(yamlpos.Of(val), "%sdo is a step: a mapping with kind and its fields", prefix)
					continue
				}
				f.Do = decodeNested(d, val, prefix+"do: ", "do")
			default:
				d.LooseErrorf(yamlpos.Of(p.Key), "%sunknown field %q%s", prefix, p.Key.Value, DidYouMean(p.Key.Value, []string{"for_each", "where", "do"}))
			}
		}
		Own[ParallelFields](s).FanOut = f
	default:
		d.Errorf(yamlpos.Of(v), "%sbranches is a list of steps, or {for_each, do}", prefix)
	}
}

func checkParallel(v Checker, s *Step) {
	switch {
	case s.Parallel().FanOut != nil:
		f := s.Parallel().FanOut
		if f.ForEach == "" || f.Do == nil {
			v.Errorf(f.Pos, "%s: branches: for_each (a JSONPath to a list) and do (the step run per item) are both required", s.Subject())
		}
	case s.Parallel().Branches == nil:
		v.Errorf(s.Pos, "%s: branches are required for a parallel step (a list of steps, or {for_each, do})", s.Subject())
	case len(s.Parallel().Branches) == 0:
		v.Errorf(s.At("branches"), "%s: branches is empty: a parallel step needs at least one", s.Subject())
	case len(s.Parallel().Branches) >= UngovernedBranches && s.Parallel().MaxConcurrency == 0:
		v.Errorf(s.At("branches"), "%s: %d branches without max_concurrency: from %d branches on, set max_concurrency to bound how many run at once", s.Subject(), len(s.Parallel().Branches), UngovernedBranches)
	}
	if s.Parallel().OnBranchFailure != "" && s.Parallel().OnBranchFailure != OnFailureBail && s.Parallel().OnBranchFailure != OnFailureContinue {
		v.Errorf(s.At("on_branch_failure"), "%s: on_branch_failure is bail or continue, not %q", s.Subject(), s.Parallel().OnBranchFailure)
	}
	for _, f := range []string{"max_concurrency", "max_recursion_depth"} {
		n := map[string]int{"max_concurrency": s.Parallel().MaxConcurrency, "max_recursion_depth": s.Parallel().MaxRecursionDepth}[f]
		if _, set := s.FieldPos[f]; set && n < 1 {
			v.Errorf(s.At(f), "%s: %s must be 1 or more", s.Subject(), f)
		}
	}
	v.totalTimeout(s)
	Own[ParallelFields](s).join = v.join(s)
	for i, b := range s.Parallel().Branches {
		v.branch(s, b, fmt.Sprintf("%s branch %d", s.Subject(), i+1), s.ID+"["+strconv.Itoa(i)+"]")
	}
	if f := s.Parallel().FanOut; f != nil && f.Do != nil {
		f.Do.fanned = true
		v.branch(s, f.Do, s.Subject()+" do", s.ID+"[*]")
	}
}

// branch checks a step written inside a parallel step, named label in
// messages and id in events.
func (v Checker) branch(parent, b *Step, label, id string) {
	b.label, b.ID, b.owner, b.role, b.parent = label, id, parent.owner, parent.role, parent
	for _, f := range []string{"id", "depends_on", "early_exit_if", "output_var"} {
		if _, set := b.FieldPos[f]; set {
			v.Errorf(b.At(f), "%s: %s does not apply to a branch (its result is one of the parallel step's branches)", label, f)
		}
	}
	v.StepKind(b, label)
	for i, fb := range b.Fallbacks {
		v.branch(parent, fb, label+" fallback "+strconv.Itoa(i+1), id)
	}
}

// Nested are the steps written inside the step: a parallel step's
// branches or its do: step, a pipeline's steps, those its kind's unit
// names (a loop's step_template, a debate's debaters), and the model step
// of a merge or a debate.
func (s *Step) Nested() []*Step {
	out := s.Parallel().Branches
	if len(s.Pipeline().Steps) > 0 {
		out = append(slices.Clone(out), s.Pipeline().Steps...)
	}
	var more []*Step
	if u := unitOf(s.Kind); u != nil && u.Nested != nil {
		more = u.Nested(s)
	}
	for _, n := range append(more, s.ModelStep()) {
		if n != nil {
			out = append(slices.Clone(out), n)
		}
	}
	if s.Parallel().FanOut != nil && s.Parallel().FanOut.Do != nil {
		out = append(slices.Clone(out), s.Parallel().FanOut.Do)
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

func compileParallel(v Checker, s *Step, c *Compiled) {
	for _, b := range s.Parallel().Branches {
		if b.Kind != "" {
			v.Compile(b)
		}
	}
	f := s.Parallel().FanOut
	if f == nil {
		return
	}
	if f.ForEach != "" {
		m, err := interp.CompileMapped(f.ForEach, false)
		switch {
		case err != nil:
			v.Errorf(f.Pos, "%s: branches.for_each: %v", s.Subject(), err)
		case m.Path == nil:
			v.Errorf(f.Pos, "%s: branches.for_each %q: write the list as a JSONPath, as in \"$.context.items\"", s.Subject(), f.ForEach)
		default:
			f.forEach = m
		}
	}
	if f.Where != "" {
		f.where = v.dollarExpression(s, "branches", "branches.where", f.Where, []string{"value", "index"})
	}
	if f.Do != nil && f.Do.Kind != "" {
		v.Compile(f.Do)
	}
}

// join compiles a parallel step's join.
func (v Checker) join(s *Step) *Join {
	bad := func() *Join {
		v.Errorf(s.At("join"), "%s: join is all, any, {at_least: K}, {percent: P} or {expression: \"...\"}", s.Subject())
		return nil
	}
	switch j := NormalizeYAML(s.Parallel().Join).(type) {
	case nil:
		return &Join{Mode: JoinAll}
	case string:
		if j != JoinAll && j != JoinAny {
			return bad()
		}
		return &Join{Mode: j}
	case map[string]any:
		if len(j) != 1 {
			return bad()
		}
		for k, val := range j {
			switch k {
			case JoinAtLeast, JoinPercent:
				n, ok := interp.IntValue(val)
				// percent 0 never fails by quorum (mcp-flowgate's escape hatch)
				if !ok || n < 1 && k == JoinAtLeast || n < 0 || k == JoinPercent && n > 100 {
					v.Errorf(s.At("join"), "%s: join.%s is a whole number %s", s.Subject(), k, map[bool]string{true: "from 0 to 100", false: "from 1"}[k == JoinPercent])
					return nil
				}
				if k == JoinAtLeast {
					return &Join{Mode: k, AtLeast: n}
				}
				return &Join{Mode: k, Percent: n}
			case JoinExpression:
				src, _ := val.(string)
				return v.joinExpression(s, src)
			case "aggregator":
				agg, _ := val.(map[string]any)
				if kind, _ := agg["kind"].(string); kind != JoinExpression {
					v.Errorf(s.At("join"), "%s: join.aggregator: only kind: expression is supported (an aggregator of kind %q would run a step to judge the branches)", s.Subject(), agg["kind"])
					return nil
				}
				src, _ := agg["expr"].(string)
				return v.joinExpression(s, src)
			}
		}
	}
	return bad()
}

func (v Checker) joinExpression(s *Step, src string) *Join {
	if src == "" {
		v.Errorf(s.At("join"), "%s: join expression is empty", s.Subject())
		return nil
	}
	e := v.dollarExpression(s, "join", "join", src, []string{"n", "ok_count", "failed_count", "cancelled_count", "branches"})
	if e == nil {
		return nil
	}
	return &Join{Mode: JoinExpression, Expr: e}
}

// dollarPath is mcp-flowgate's $.name in an expression.
var dollarPath = LazyRegexp(`\$\.`)

// dollarExpression compiles an mcp-flowgate expression ($.ok_count >= 2,
// $.value != ”) over the given names: $.name reads name. Its value counts
// as a bare guard's (Expression.Truthy): a bare $.ok_count or $.value
// holds when it is not zero or empty.
func (v Checker) dollarExpression(s *Step, field, what, src string, names []string) *Expression {
	e, err := interp.CompileExpression(dollarPath().ReplaceAllString(src, ""), func(n string) bool { return slices.Contains(names, n) }, false)
	if err != nil {
		v.Errorf(s.At(field), "%s: %s %q: %s (it reads %s)", s.Subject(), what, src, strings.TrimPrefix(err.Error(), "names "), "$."+strings.Join(names, ", $."))
		return nil
	}
	e.Source = src
	return e
}
