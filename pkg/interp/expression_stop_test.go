package interp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// An evaluation that would spin for minutes gives up when its context
// ends, with the context's error; one that ends first gives its value.
func TestEvalContextGivesUpWhenCancelled(t *testing.T) {
	spin, err := CompileExpression(`len(filter(1..900000, s contains "b"))`, anyName, false)
	if err != nil {
		t.Fatal(err)
	}
	long := make([]byte, 1<<20)
	for i := range long {
		long[i] = 'a'
	}
	env := map[string]any{"s": string(long)}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = spin.EvalContext(ctx, env)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("gave up after %s", d)
	}
	stop, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	if _, err := spin.EvalContext(stop, env); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: err = %v", err)
	}
	quick, err := CompileExpression(`1 + 2`, anyName, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := quick.EvalContext(context.Background(), nil); err != nil || v != 3 {
		t.Fatalf("1 + 2 = %v, %v", v, err)
	}
	bad, err := CompileExpression(`s + 1`, anyName, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.HoldsContext(context.Background(), map[string]any{"s": "x"}); err == nil {
		t.Fatal("a failing condition gave no error")
	}
}

func anyName(string) bool { return true }

// Only an expression that may iterate pays for a goroutine.
func TestMayLoop(t *testing.T) {
	for src, want := range map[string]bool{
		`1 + 2`:                               false,
		`s contains "b" && len(s) > 3`:        false,
		`filter(xs, # > 1)`:                   true,
		`map(xs, #.a)`:                        true,
		`1..10`:                               true,
		`len(s) > 0 ? all(xs, # > 0) : false`: true,
		`reduce(xs, #acc + #, 0)`:             true,
	} {
		e, err := CompileExpression(src, anyName, false)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if e.loops != want {
			t.Errorf("%s: loops %v, want %v", src, e.loops, want)
		}
	}
}
