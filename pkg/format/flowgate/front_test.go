package flowgate

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// front is the one front-end these tests read files through: the package
// cannot import pkg/load, which lists it.
var front = []chain.Format{Format}

// The model's names the tests use, as pkg/chain's own tests write them.
type (
	Options         = chain.Options
	Loaded          = chain.Loaded
	ValidationError = chain.ValidationError
)

// Parse reads chain text as pkg/load's Parse does, with this front-end.
func Parse(file string, data []byte, opts Options) (*Loaded, error) {
	return chain.ParseAs(file, data, opts, front)
}

// mustParse parses src, which must load.
func mustParse(t *testing.T, src string) *Loaded {
	t.Helper()
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return l
}

// warningsOf is a loaded file's warnings, one a line.
func warningsOf(l *Loaded) string {
	var out []string
	for _, w := range l.Warnings {
		out = append(out, w.String())
	}
	return strings.Join(out, "\n")
}

// expectLoad parses src: it loads when want is "", else its validation
// errors hold want.
func expectLoad(t *testing.T, src, want string) {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src), Options{})
	if want == "" {
		if err != nil {
			t.Fatalf("does not load: %v", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error holding %q, got %v", want, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("errors\n%v\nhold no %q", err, want)
	}
}

// executorFile is a workflow file whose one transition runs the executor
// given (indented under executor:), with the file-level keys given.
func executorFile(top, executor string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(executor, "\n"), "\n") {
		b.WriteString("              " + line + "\n")
	}
	return top + "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor:\n" +
		b.String() + "      b: {terminal: true}\n"
}
