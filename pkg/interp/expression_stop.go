package interp

import (
	"context"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// RunExprContext is RunExpr that gives up when ctx ends (a step's
// timeout_ms, an interrupt). expr's machine has no way to be stopped,
// and an expression can spin for minutes while allocating nothing (a
// filter over a large range, each item scanning a long text), which the
// memory budget never sees: so the evaluation runs in a goroutine of its
// own and, when ctx ends first, is left to finish there, its result
// dropped, while the step fails or stops as ctx says. What it may still
// build is bounded by ExprMemoryBudget, and an interrupted run's process
// exits without waiting for it.
func RunExprContext(ctx context.Context, program *vm.Program, env map[string]any) (any, error) {
	if ctx == nil || ctx.Done() == nil {
		return RunExpr(program, env)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := RunExpr(program, env)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// EvalContext is Eval that gives up when ctx ends (RunExprContext). An
// expression without a loop runs here, as Eval does: its time is bounded
// by what it reads, and a goroutine would cost each evaluation about a
// microsecond (a quarter of an in-process step).
func (e *Expression) EvalContext(ctx context.Context, env map[string]any) (any, error) {
	if !e.loops {
		return e.Eval(env)
	}
	out, err := RunExprContext(ctx, e.program, env)
	if err != nil {
		if ctx != nil && ctx.Err() != nil && err == ctx.Err() {
			return nil, err
		}
		return nil, exprError(e.Source, err)
	}
	return out, nil
}

// HoldsContext is Holds that gives up when ctx ends (RunExprContext).
func (e *Expression) HoldsContext(ctx context.Context, env map[string]any) (bool, error) {
	if e.fallback != nil {
		return e.fallback(env)
	}
	out, err := e.EvalContext(ctx, env)
	if err != nil {
		return false, err
	}
	return holdsValue(e.Source, out)
}

// mayLoop reports whether the tree holds a loop: a predicate (filter,
// map, all, any, reduce, sortBy, groupBy…) or a range (a..b).
func mayLoop(root ast.Node) bool {
	var v loopFinder
	ast.Walk(&root, &v)
	return v.found
}

type loopFinder struct{ found bool }

func (f *loopFinder) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.PredicateNode:
		f.found = true
	case *ast.BinaryNode:
		if n.Operator == ".." {
			f.found = true
		}
	}
}
