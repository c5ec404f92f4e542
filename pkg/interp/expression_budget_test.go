package interp

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/expr-lang/expr"
)

// TestExpressionsBuildNoMoreThanTheBudget: whatever an expression's inputs
// say, what it builds — one repeat, a string doubled in a loop, a list
// joined or turned into JSON, the same text changed over and over — is
// sized against ExprMemoryBudget before it is made: the evaluation fails
// with a clear error, at once, and the process keeps its memory.
func TestExpressionsBuildNoMoreThanTheBudget(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"nested repeat", `len(repeat(repeat("a", n), n))`, "repeat"},
		{"repeat of a long text", `len(repeat(big, n))`, "repeat"},
		{"doubling with +", `len(reduce(1..60, #acc + #acc, "ab"))`, "+"},
		{"growing with + in a loop", `len(reduce(1..100000, #acc + big, ""))`, "+"},
		{"join of a shared text", `len(join(map(1..100000, big), ","))`, "join"},
		{"JSON of a shared text", `len(toJSON(map(1..100000, big)))`, "toJSON"},
		{"replace that grows", `len(replace(repeat("a", n), "a", big))`, "replace"},
		{"lower in a loop", `len(map(1..100000, lower(big)))`, "lower"},
		{"concat doubling", `len(reduce(1..60, concat(#acc, #acc), [1]))`, "concat"},
		{"JSON of a deep list, indented", `len(toJSON(reduce(1..9000, [#acc], [])))`, "toJSON"},
		{"JSON of deep maps and lists", `len(toJSON(reduce(1..5000, ({"key": [#acc, 1]}), {})))`, "toJSON"},
	}
	env := func() map[string]any { return map[string]any{"n": 500000, "big": strings.Repeat("X", 1<<20)} }
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := CompileExpression(c.src, func(n string) bool { return n == "n" || n == "big" }, false)
			if err != nil {
				t.Fatal(err)
			}
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err = e.Eval(env())
			if err == nil || !strings.Contains(err.Error(), c.want+": ") || !strings.Contains(err.Error(), "the 64 MiB an expression may build") {
				t.Fatalf("got %v, want a budget error from %s", err, c.want)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 4*ExprMemoryBudget {
				t.Errorf("allocated %d MiB before refusing", grown>>20)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// within the budget, everything works as before
	ok := map[string]any{
		`len(repeat("ab", 1000))`:                2000,
		`"a" + "b" + string(1)`:                  "ab1",
		`1 + 2`:                                  3,
		`1.5 + 1`:                                2.5,
		`join(["a", "b"], "-") + toJSON([1])`:    "a-b[\n  1\n]",
		`replace("aXa", "X", "--") + upper("z")`: "a--aZ",
		`len(concat([1], [2, 3])) + len(big)`:    3 + (1 << 20),
		// text read again and again, never copied, counts nothing
		`len(filter(1..200, string(big) == trim(big) && upper(big) == big))`: 200,
	}
	for src, want := range ok {
		e, err := CompileExpression(src, func(n string) bool { return n == "big" }, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Eval(env())
		if err != nil || got != want {
			t.Errorf("%s = %v (%v), want %v", src, got, err, want)
		}
	}
}

// TestSizedExpressionsAreStillTypeChecked: sizing what an expression
// builds takes nothing from the checks made when the chain loads: a
// function given arguments of the wrong type, or + of operands that
// cannot be added, is still refused there.
func TestSizedExpressionsAreStillTypeChecked(t *testing.T) {
	for _, src := range []string{`repeat(1, 2)`, `"a" + 1`, `[1, 2] + [3]`, `upper(1)`, `join(1)`, `len(replace("a", 1, "b"))`} {
		if _, err := CompileExpression(src, func(string) bool { return false }, false); err == nil || !strings.Contains(err.Error(), "does not compile") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestBudgetOptionsAreSharedSafely: the options are built once and every
// compile appends its own to them; one caller's append never shows in
// another's slice.
func TestBudgetOptionsAreSharedSafely(t *testing.T) {
	a := append(BudgetOptions(), expr.AllowUndefinedVariables())
	b := append(BudgetOptions(), expr.AsBool())
	if len(a) != len(b) || &a[len(a)-1] == &b[len(b)-1] {
		t.Fatal("two callers' appends share a backing array")
	}
	if len(BudgetOptions()) != len(a)-1 {
		t.Fatalf("an append changed the shared options: %d", len(BudgetOptions()))
	}
}
