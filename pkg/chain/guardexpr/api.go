package guardexpr

import "github.com/chainrun/chainrun/pkg/yamlpos"

// SetExpr makes g an expr guard over src, compiled once here so that a
// bad expression is a load error at the guard's line, never a run's.
func (g *Guard) SetExpr(src string) error {
	e, err := compileExpr(src, false)
	if err != nil {
		return err
	}
	g.Expr, g.expr = src, e
	return nil
}

// CompileOutput compiles an output mapping's expression: a guard's
// language that may also read $.output, whose value (not only its truth)
// is what the mapping writes.
func CompileOutput(src string) (*Expr, error) { return compileExpr(src, true) }

// Eval computes the expression over the run's facts and the executor's
// output; reading an unset context slot is an error naming it.
func (g *Expr) Eval(f *GuardFacts, output any) (any, error) { return g.eval(f, output) }

// Holds reports whether the guard holds on facts, why not, and an error
// when it could not be checked (an unset slot).
func (g *Guard) Holds(f *GuardFacts) (bool, string, error) { return g.check(f) }

// At returns where a field of the guard was written.
func (g *Guard) At(field string) yamlpos.Pos {
	if p, ok := g.FieldPos[field]; ok {
		return p
	}
	return g.Pos
}
