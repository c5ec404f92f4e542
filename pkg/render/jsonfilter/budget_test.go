package jsonfilter

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// An expression that never ends, or grows without end, is stopped by
// the filter's budget: an ApplyError saying so, soon after the budget.
func TestJQBudget(t *testing.T) {
	for _, tc := range []struct{ name, expr, want string }{
		// the memory cases have a time budget they do not reach first
		{"endless recursion", "def loop: loop; loop", "ran longer than 300ms"},
		{"an endless generator gathered", "[repeat(.)] | length", "ran longer than 300ms"},
		{"a huge bounded generator", "[limit(500000000; repeat(0))] | length", "ran longer than 300ms"},
		{"nesting that only grows", "def grow: [grow, grow]; grow", "used more than 64 MiB"},
		{"a string doubled without end", `def dbl(s): dbl(s + s); dbl("ab")`, "used more than 64 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// each case meets one budget well before the other: a fast
			// machine gathers 64 MiB in well under 300 ms
			budget, memory := 300*time.Millisecond, uint64(4<<30)
			if strings.Contains(tc.want, "MiB") {
				budget, memory = 20*time.Second, 64<<20
			}
			f, err := New(Options{JQ: tc.expr, Budget: budget, MaxMemory: memory})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var out strings.Builder
			err = f.Apply(context.Background(), &out, []byte(`{"k": 1}`))
			var ae *ApplyError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ApplyError saying %q", err, tc.want)
			}
			if d := time.Since(start); d > budget+3*time.Second {
				t.Errorf("took %v to stop", d)
			}
		})
	}
}

// A stop (the command's context cancelled, as a signal does) ends the
// filter at once with the context's error, whatever it was doing.
func TestJQStopsOnCancel(t *testing.T) {
	for _, expr := range []string{"def loop: loop; loop", "[range(1e12)] | length", "last(range(1e12))"} {
		t.Run(expr, func(t *testing.T) {
			f, err := New(Options{JQ: expr})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			start := time.Now()
			err = f.Apply(ctx, &strings.Builder{}, []byte(`null`))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want the cancellation", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v to stop", d)
			}
		})
	}
}
