package jsonfilter

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// These run last in the package (the file sorts after the others'): a
// template stopped while it writes nothing is left to run on apart, and
// must not spend the heap a later test's memory budget measures.

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
