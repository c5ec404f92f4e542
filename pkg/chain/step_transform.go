package chain

import "reflect"

// TransformFields configure a transform step: one expression over the
// run's variables, whose value is the output.
type TransformFields struct {
	Expr string `yaml:"expr" doc:"expr-lang expression of a transform step."`
}

var transformKind = kindUnit{
	kind: KindTransform,
	body: reflect.TypeFor[TransformFields](),
	check: func(v *validator, s *Step) {
		if s.Expr == "" {
			v.d.errorf(s.Pos, "%s: expr is required for a transform step", s.subject())
		}
	},
	compile: func(v *validator, s *Step, c *Compiled) {
		c.Transform = v.expression(s, "expr", s.Expr, false, false)
	},
}
