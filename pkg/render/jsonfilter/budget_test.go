package jsonfilter

import (
	"context"
	"errors"
	"io"
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
			budget := 300 * time.Millisecond
			if strings.Contains(tc.want, "MiB") {
				budget = 20 * time.Second
			}
			f, err := New(Options{JQ: tc.expr, Budget: budget, MaxMemory: 64 << 20})
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

// A template that loops over its value without end in sight, writing or
// not, or grows its output without bound, is stopped by the same budget
// as --jq, and at once by a stop.
func TestTemplateBudget(t *testing.T) {
	deep := strings.Repeat("{{range $}}", 10) + "x" + strings.Repeat("{{end}}", 10)
	silent := strings.Repeat("{{range $}}", 10) + strings.Repeat("{{end}}", 10)
	wide := strings.Repeat("{{range $}}", 4) + `{{printf "%0999999d" 1}}` + strings.Repeat("{{end}}", 4)
	list := []byte(`[` + strings.TrimSuffix(strings.Repeat("1,", 40), ",") + `]`)
	for _, tc := range []struct{ name, tmpl string }{
		{"writing", deep}, {"writing nothing", silent}, {"a megabyte a step", wide},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(Options{Template: tc.tmpl, Budget: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = f.Apply(context.Background(), io.Discard, list)
			var ae *ApplyError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), "--template: the template ran longer than 300ms: stopped") {
				t.Fatalf("got %v, want the template stopped by its budget", err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v to stop", d)
			}
		})
	}
	f, err := New(Options{Template: silent})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if err := f.Apply(ctx, io.Discard, list); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the cancellation", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v to stop", d)
	}
	ok, err := New(Options{Template: `{{range .}}{{.}}{{end}}{{"\n"}}`})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := ok.Apply(context.Background(), &out, []byte(`[1,2,3]`)); err != nil || out.String() != "123\n" {
		t.Fatalf("a template within its budget: %q, %v", out.String(), err)
	}
}
