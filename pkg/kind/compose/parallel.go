package compose

import "github.com/chainrun/chainrun/pkg/chain"

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

func init() {
	chain.Register(chain.Unit{
		Kind: chain.KindParallel,
		Decode: map[string]chain.KeyDecoder{"branches": func(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) bool {
			decodeParallelBranches(d, s, v, prefix)
			return true
		}},
		Schema: map[string]any{
			"branches":          map[string]any{"type": []string{"array", "object"}},
			"join":              map[string]any{"oneOf": []any{map[string]any{"enum": []string{chain.JoinAll, chain.JoinAny}}, map[string]any{"type": "object", "minProperties": 1, "maxProperties": 1}}},
			"on_branch_failure": map[string]any{"enum": []string{chain.OnFailureBail, chain.OnFailureContinue}},
		},
		Nested: func(s *chain.Step) []*chain.Step {
			out := s.Parallel().Branches
			if s.Parallel().FanOut != nil && s.Parallel().FanOut.Do != nil {
				out = append(slices.Clone(out), s.Parallel().FanOut.Do)
			}
			return out
		},
		Order:   100,
		Body:    reflect.TypeFor[chain.ParallelFields](),
		Check:   checkParallel,
		Compile: compileParallel,
	})
}

// decodeBranches reads a parallel step's branches: a list of steps, or
// {for_each, where, do}.
func decodeParallelBranches(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) {
	prefix += "branches: "
	switch v.Kind {
	case yaml.SequenceNode:
		chain.Own[chain.ParallelFields](s).Branches = []*chain.Step{}
		for _, n := range v.Content {
			if b := chain.DecodeNested(d, yamlpos.Deref(n), prefix, "a branch"); b != nil {
				chain.Own[chain.ParallelFields](s).Branches = append(s.Parallel().Branches, b)
			}
		}
	case yaml.MappingNode:
		f := &chain.FanOut{Pos: yamlpos.Of(v)}
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
				f.Do = chain.DecodeNested(d, val, prefix+"do: ", "do")
			default:
				d.LooseErrorf(yamlpos.Of(p.Key), "%sunknown field %q%s", prefix, p.Key.Value, chain.DidYouMean(p.Key.Value, []string{"for_each", "where", "do"}))
			}
		}
		chain.Own[chain.ParallelFields](s).FanOut = f
	default:
		d.Errorf(yamlpos.Of(v), "%sbranches is a list of steps, or {for_each, do}", prefix)
	}
}

func checkParallel(v chain.Checker, s *chain.Step) {
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
	case len(s.Parallel().Branches) >= chain.UngovernedBranches && s.Parallel().MaxConcurrency == 0:
		v.Errorf(s.At("branches"), "%s: %d branches without max_concurrency: from %d branches on, set max_concurrency to bound how many run at once", s.Subject(), len(s.Parallel().Branches), chain.UngovernedBranches)
	}
	if s.Parallel().OnBranchFailure != "" && s.Parallel().OnBranchFailure != chain.OnFailureBail && s.Parallel().OnBranchFailure != chain.OnFailureContinue {
		v.Errorf(s.At("on_branch_failure"), "%s: on_branch_failure is bail or continue, not %q", s.Subject(), s.Parallel().OnBranchFailure)
	}
	for _, f := range []string{"max_concurrency", "max_recursion_depth"} {
		n := map[string]int{"max_concurrency": s.Parallel().MaxConcurrency, "max_recursion_depth": s.Parallel().MaxRecursionDepth}[f]
		if _, set := s.FieldPos[f]; set && n < 1 {
			v.Errorf(s.At(f), "%s: %s must be 1 or more", s.Subject(), f)
		}
	}
	totalTimeout(v, s)
	chain.Own[chain.ParallelFields](s).SetJoin(join(v, s))
	for i, b := range s.Parallel().Branches {
		v.Branch(s, b, fmt.Sprintf("%s branch %d", s.Subject(), i+1), s.ID+"["+strconv.Itoa(i)+"]")
	}
	if f := s.Parallel().FanOut; f != nil && f.Do != nil {
		f.Do.MarkFanned()
		v.Branch(s, f.Do, s.Subject()+" do", s.ID+"[*]")
	}
}

func compileParallel(v chain.Checker, s *chain.Step, c *chain.Compiled) {
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
			f.SetForEach(m)
		}
	}
	if f.Where != "" {
		f.SetWhere(dollarExpression(v, s, "branches", "branches.where", f.Where, []string{"value", "index"}))
	}
	if f.Do != nil && f.Do.Kind != "" {
		v.Compile(f.Do)
	}
}

// join compiles a parallel step's join.
func join(v chain.Checker, s *chain.Step) *chain.Join {
	bad := func() *chain.Join {
		v.Errorf(s.At("join"), "%s: join is all, any, {at_least: K}, {percent: P} or {expression: \"...\"}", s.Subject())
		return nil
	}
	switch j := chain.NormalizeYAML(s.Parallel().Join).(type) {
	case nil:
		return &chain.Join{Mode: chain.JoinAll}
	case string:
		if j != chain.JoinAll && j != chain.JoinAny {
			return bad()
		}
		return &chain.Join{Mode: j}
	case map[string]any:
		if len(j) != 1 {
			return bad()
		}
		for k, val := range j {
			switch k {
			case chain.JoinAtLeast, chain.JoinPercent:
				n, ok := interp.IntValue(val)
				// percent 0 never fails by quorum (mcp-flowgate's escape hatch)
				if !ok || n < 1 && k == chain.JoinAtLeast || n < 0 || k == chain.JoinPercent && n > 100 {
					v.Errorf(s.At("join"), "%s: join.%s is a whole number %s", s.Subject(), k, map[bool]string{true: "from 0 to 100", false: "from 1"}[k == chain.JoinPercent])
					return nil
				}
				if k == chain.JoinAtLeast {
					if branches := len(s.Parallel().Branches); s.Parallel().FanOut == nil && n > branches {
						v.Errorf(s.At("join"), "%s: join.at_least %d is more than its %d branches: the step could never succeed", s.Subject(), n, branches)
						return nil
					}
					return &chain.Join{Mode: k, AtLeast: n}
				}
				return &chain.Join{Mode: k, Percent: n}
			case chain.JoinExpression:
				src, _ := val.(string)
				return joinExpression(v, s, src)
			case "aggregator":
				agg, _ := val.(map[string]any)
				if kind, _ := agg["kind"].(string); kind != chain.JoinExpression {
					v.Errorf(s.At("join"), "%s: join.aggregator: only kind: expression is supported (an aggregator of kind %q would run a step to judge the branches)", s.Subject(), agg["kind"])
					return nil
				}
				src, _ := agg["expr"].(string)
				return joinExpression(v, s, src)
			}
		}
	}
	return bad()
}

func joinExpression(v chain.Checker, s *chain.Step, src string) *chain.Join {
	if src == "" {
		v.Errorf(s.At("join"), "%s: join expression is empty", s.Subject())
		return nil
	}
	e := dollarExpression(v, s, "join", "join", src, []string{"n", "ok_count", "failed_count", "cancelled_count", "branches"})
	if e == nil {
		return nil
	}
	return &chain.Join{Mode: chain.JoinExpression, Expr: e}
}

// dollarPath is mcp-flowgate's $.name in an expression.
var dollarPath = chain.LazyRegexp(`\$\.`)

// dollarExpression compiles an mcp-flowgate expression ($.ok_count >= 2,
// $.value != ”) over the given names: $.name reads name. Its value counts
// as a bare guard's (Expression.Truthy): a bare $.ok_count or $.value
// holds when it is not zero or empty.
func dollarExpression(v chain.Checker, s *chain.Step, field, what, src string, names []string) *chain.Expression {
	e, err := interp.CompileExpression(dollarPath().ReplaceAllString(src, ""), func(n string) bool { return slices.Contains(names, n) }, false)
	if err != nil {
		v.Errorf(s.At(field), "%s: %s %q: %s (it reads %s)", s.Subject(), what, src, strings.TrimPrefix(err.Error(), "names "), "$."+strings.Join(names, ", $."))
		return nil
	}
	e.Source = src
	return e
}
