package wfpart

import (
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	"github.com/theory/jsonpath"
)

// Edge is a move from one state to another.
type Edge struct{ From, To string }

// Branch operators (reference 003).
const (
	OpEquals      = "equals"
	OpNotEquals   = "not_equals"
	OpContains    = "contains"
	OpNotContains = "not_contains"
	OpRange       = "range"
	OpDefault     = "default"
	OpStartsWith  = "starts_with"
	OpEndsWith    = "ends_with"
	// OpEdgeTraversed holds once the run has gone along the branch's
	// edge ("from->to") at least when times.
	OpEdgeTraversed = "edge_traversed_at_least"
)

// Operators lists the branch operators, for messages and the schema.
func Operators() []string {
	return []string{OpEquals, OpNotEquals, OpContains, OpNotContains, OpStartsWith, OpEndsWith, OpRange, OpEdgeTraversed, OpDefault}
}

// Branch is one rule of a task's transition: when the task's result
// string matches, go to a state (or end), optionally composing a variable
// from the task's output.
type Branch struct {
	Operator string      `yaml:"operator" json:"operator" doc:"equals, not_equals, contains, not_contains, range (\"min,max\") or default."`
	When     string      `yaml:"when" json:"when" doc:"The value the task's result is matched against."`
	Goto     string      `yaml:"goto" json:"goto" doc:"The next state, or end."`
	Compose  *Compose    `yaml:"compose" json:"compose,omitempty" doc:"Stores a value from the task's output in a variable when this branch is taken."`
	Edge     string      `yaml:"edge" json:"edge,omitempty" doc:"For edge_traversed_at_least: the move \"from->to\" counted; when is the count."`
	Pos      yamlpos.Pos `yaml:"-" json:"-"`
	// ByFirstNumber: a range reads a result by its first number (FirstNumber).
	ByFirstNumber bool `yaml:"-" json:"-"`

	lo, hi float64
	edge   Edge
	times  int
}

// Take reports whether the branch takes a task's result, given how many
// times the run has gone along each edge (for edge_traversed_at_least).
func (b *Branch) Take(result string, traversed func(Edge) int) bool {
	if b.Operator == OpEdgeTraversed {
		return traversed(b.edge) >= b.times
	}
	return b.Matches(result)
}

// Matches reports whether the branch takes a task's result string.
func (b *Branch) Matches(result string) bool {
	switch b.Operator {
	case OpEquals:
		return result == b.When
	case OpNotEquals:
		return result != b.When
	case OpContains:
		return strings.Contains(result, b.When)
	case OpNotContains:
		return !strings.Contains(result, b.When)
	case OpStartsWith:
		return strings.HasPrefix(result, b.When)
	case OpEndsWith:
		return strings.HasSuffix(result, b.When)
	case OpRange:
		f, err := b.rangeNumber(result)
		return err == nil && f >= b.lo && f <= b.hi
	case OpDefault:
		return true
	}
	return false
}

// ParseRange reads a range branch's "min,max" (inclusive). Either bound
// may be a decimal number; min may not exceed max.
func ParseRange(when string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(when, ",")
	if !ok {
		return 0, 0, errRange(when, "write it as \"min,max\", as in \"200,299\"")
	}
	if lo, err = strconv.ParseFloat(strings.TrimSpace(a), 64); err != nil {
		return 0, 0, errRange(when, "min is not a number")
	}
	if hi, err = strconv.ParseFloat(strings.TrimSpace(b), 64); err != nil {
		return 0, 0, errRange(when, "max is not a number")
	}
	if lo > hi {
		return 0, 0, errRange(when, "min is greater than max")
	}
	return lo, hi, nil
}

type rangeError struct{ when, why string }

func (e *rangeError) Error() string { return "range " + strconv.Quote(e.when) + ": " + e.why }

func errRange(when, why string) error { return &rangeError{when, why} }

// Compose stores a value taken from the task's output in a variable when
// its branch is taken (reference 003).
type Compose struct {
	WithVar  string `yaml:"with_var" json:"with_var" doc:"The variable's name ({{.name}} or {name} reads it)."`
	Strategy string `yaml:"strategy" json:"strategy" doc:"json_path:$.path into the task's output."`

	path *jsonpath.Path
}

// Path is the compiled JSONPath of a json_path strategy.
func (c *Compose) Path() *jsonpath.Path { return c.path }

// SetRange sets a range branch's bounds as validation read them (ParseRange).
func (b *Branch) SetRange(lo, hi float64) { b.lo, b.hi = lo, hi }

// SetEdge sets an edge_traversed_at_least branch's edge and count as
// validation read them.
func (b *Branch) SetEdge(e Edge, times int) { b.edge, b.times = e, times }

// SetPath sets a json_path compose's JSONPath as validation compiled it (Path).
func (c *Compose) SetPath(p *jsonpath.Path) { c.path = p }
