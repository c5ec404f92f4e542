package guardexpr

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Expr is an expr guard compiled to expr-lang: its $.paths become
// reads of the run's documents, and its comparisons compare as
// mcp-flowgate does (numbers as numbers, numeric text too; other values
// by equality; an ordering between values of different types is false).
// A value that is no comparison holds when it is truthy.
type Expr struct {
	program *vm.Program
}

// Names of the expression's environment; a guard's own text cannot name
// them (it reads $.paths only).
const (
	guardProbe     = "probe__"
	guardContext   = "context__"
	guardArguments = "arguments__"
	guardInput     = "input__"
	guardWorkflow  = "workflow__"
	guardOutput    = "output__"
	guardSlotFn    = "slot__"
	guardOptFn     = "opt__"
	guardCompareFn = "compare__"
)

// guardRoots says what each $.root of a guard reads, for messages.
const guardRoots = "$.context.x, $.arguments.x, $.workflow.input.x (or $.input.x), $.workflow.id, $.workflow.state or $.workflow.version"

// compileGuardExpr translates and compiles an expr guard.
func compileGuardExpr(src string) (*Expr, error) { return compileExpr(src, false) }

// compileExpr translates and compiles a guard's expression, or with
// output set an output mapping's, which may also read $.output.
func compileExpr(src string, output bool) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("is empty: write a comparison such as \"$.context.approved == true\"")
	}
	text, err := translateGuard(src, output)
	if err != nil {
		return nil, err
	}
	tree, err := parser.Parse(text)
	if err != nil {
		// the position is in the translated text: leave it out
		return nil, fmt.Errorf("does not parse: %s", strings.TrimSpace(exprPos().ReplaceAllString(interp.FirstLine(err.Error()), "")))
	}
	names, _ := interp.CollectNames(tree.Node)
	for _, n := range names {
		switch n {
		case guardProbe, guardContext, guardArguments, guardInput, guardWorkflow:
		case guardOutput:
			if !output {
				return nil, fmt.Errorf("reads %s, which is no path: a guard reads %s", n, guardRoots)
			}
		default:
			return nil, fmt.Errorf("reads %s, which is no path: a guard reads %s", n, guardRoots)
		}
	}
	prog, err := expr.Compile(text, append([]expr.Option{
		expr.AllowUndefinedVariables(), expr.Patch(guardCompare{}),
		expr.Function(guardSlotFn, slotFn), expr.Function(guardOptFn, optFn), expr.Function(guardCompareFn, compareFn)},
		interp.BudgetOptions()...)...)
	if err != nil {
		return nil, fmt.Errorf("does not compile: %s", strings.TrimSpace(exprPos().ReplaceAllString(interp.FirstLine(err.Error()), "")))
	}
	return &Expr{program: prog}, nil
}

// exprPos matches the (line:column) expr-lang puts on its messages.
var exprPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\(\d+:\d+\)\s*$`) })

// probe carries, out of one evaluation, the unset slot it read.
type probe struct{ unset string }

// holds evaluates the expression against the facts; reading an unset
// slot of the context is a *GuardError naming it.
func (g *Expr) holds(f *GuardFacts) (bool, error) {
	out, err := g.eval(f, nil)
	if err != nil {
		return false, err
	}
	return interp.Truthy(out), nil
}

// eval computes the expression's value against the facts (and, for an
// output mapping's, the executor's output).
func (g *Expr) eval(f *GuardFacts, output any) (any, error) {
	p := &probe{}
	wf := map[string]any{"id": f.RunID, "state": f.State, "version": f.Version}
	env := map[string]any{guardProbe: p, guardContext: f.Context, guardArguments: f.Arguments, guardInput: f.Input, guardWorkflow: wf, guardOutput: output}
	out, err := interp.RunExpr(g.program, env)
	if p.unset != "" {
		return nil, &GuardError{Slot: p.unset}
	}
	if err != nil {
		return nil, errors.New(interp.FirstLine(err.Error()))
	}
	return plainJSON(out), nil
}

// translateGuard rewrites a guard's $.paths as calls that read them, and
// mcp-flowgate's spellings (null, starts_with, ends_with) as expr-lang's,
// refusing an operator that is not one; quoted text is left as it is.
func translateGuard(src string, output bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := skipQuoted(src, i)
			b.WriteString(src[i:j])
			i = j
		case c == '$':
			call, n, err := translatePath(src[i:], output)
			if err != nil {
				return "", err
			}
			b.WriteString(call)
			i += n
		case strings.ContainsRune("=!<>", rune(c)):
			j := i
			for j < len(src) && strings.ContainsRune("=!<>", rune(src[j])) {
				j++
			}
			op := src[i:j]
			switch op {
			case "==", "!=", "<", ">", "<=", ">=", "!":
			default:
				hint := ""
				if op == "=" {
					hint = " (did you mean ==?)"
				}
				return "", fmt.Errorf("has an unknown operator %q%s: compare with ==, !=, <, >, <= or >=", op, hint)
			}
			b.WriteString(op)
			i = j
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			w := src[i:j]
			switch w {
			case "null":
				w = "nil"
			case "starts_with":
				w = "startsWith"
			case "ends_with":
				w = "endsWith"
			}
			b.WriteString(w)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// skipQuoted returns the index just past the quoted text starting at i
// (the end of src when it is not closed: the parser then says so).
func skipQuoted(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j + 1
		}
	}
	return len(src)
}

// translatePath reads the $.path at the start of s: it returns the call
// that reads it and how many bytes it took.
func translatePath(s string, output bool) (string, int, error) {
	segs, n, err := pathSegments(s)
	if err != nil {
		return "", 0, err
	}
	raw := s[:n]
	names := func(from int) string {
		var b strings.Builder
		for _, sg := range segs[from:] {
			b.WriteString(", ")
			b.WriteString(sg)
		}
		return b.String()
	}
	root := strings.Trim(segs[0], `"`)
	switch root {
	case "context":
		if len(segs) == 1 {
			return "", 0, fmt.Errorf("reads %s, which names no slot: write $.context.NAME", raw)
		}
		return fmt.Sprintf("%s(%s, %s, %s%s)", guardSlotFn, guardProbe, strconv.Quote(raw), guardContext, names(1)), n, nil
	case "arguments":
		return fmt.Sprintf("%s(%s%s)", guardOptFn, guardArguments, names(1)), n, nil
	case "input":
		return fmt.Sprintf("%s(%s%s)", guardOptFn, guardInput, names(1)), n, nil
	case "workflow":
		if len(segs) > 1 && segs[1] == `"input"` {
			return fmt.Sprintf("%s(%s%s)", guardOptFn, guardInput, names(2)), n, nil
		}
		if len(segs) == 2 && (segs[1] == `"id"` || segs[1] == `"state"` || segs[1] == `"version"`) {
			return fmt.Sprintf("%s(%s%s)", guardOptFn, guardWorkflow, names(1)), n, nil
		}
	case "output":
		if output {
			return fmt.Sprintf("%s(%s%s)", guardOptFn, guardOutput, names(1)), n, nil
		}
		return "", 0, fmt.Errorf("reads %s: guards are checked before the transition runs, so there is no output yet; a guard reads %s", raw, guardRoots)
	}
	return "", 0, fmt.Errorf("reads %s: a guard reads %s", raw, guardRoots)
}

// pathSegments splits $.a.b[0]["c d"] into its segments, each as an
// expr-lang literal ("a", "b", 0, "c d"), and says how long the path is.
func pathSegments(s string) ([]string, int, error) {
	bad := func(at int) error {
		end := at
		for end < len(s) && !strings.ContainsRune(" \t\n)=!<>&|,", rune(s[end])) {
			end++
		}
		return fmt.Errorf("has %q, which is not a path: write $.context.name (names joined by dots, [0] for an item of a list)", s[:max(end, 1)])
	}
	if !strings.HasPrefix(s, "$.") {
		return nil, 0, bad(1)
	}
	var segs []string
	i := 1
	for i < len(s) {
		switch s[i] {
		case '.':
			j := i + 1
			for j < len(s) && (isWordByte(s[j]) || s[j] == '-') {
				j++
			}
			if j == i+1 {
				return nil, 0, bad(j)
			}
			segs = append(segs, strconv.Quote(s[i+1:j]))
			i = j
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, 0, bad(i)
			}
			in := strings.TrimSpace(s[i+1 : i+end])
			if n, err := strconv.Atoi(in); err == nil && n >= 0 {
				segs = append(segs, in)
			} else if uq, err := strconv.Unquote(in); err == nil {
				segs = append(segs, strconv.Quote(uq))
			} else if len(in) >= 2 && in[0] == '\'' && in[len(in)-1] == '\'' {
				segs = append(segs, strconv.Quote(in[1:len(in)-1]))
			} else {
				return nil, 0, bad(i + end + 1)
			}
			i += end + 1
		default:
			if len(segs) == 0 {
				return nil, 0, bad(i)
			}
			return segs, i, nil
		}
	}
	return segs, i, nil
}
