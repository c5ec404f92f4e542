package contenox

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// front is the one front-end these tests read files through: the package
// cannot import pkg/load, which lists it.
var front = []chain.Format{Format}

// parseChain reads chain text as pkg/load's Parse does, with this front-end.
func parseChain(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return chain.ParseAs(file, data, opts, front)
}

// loadFile reads a chain file as pkg/load's LoadFile does.
func loadFile(path string, opts chain.Options) (*chain.Loaded, error) {
	return chain.LoadFileAs(path, opts, front)
}

// wantFindings parses src, which must fail, and checks that every one
// of want is among its findings.
func wantFindings(t *testing.T, src string, want []string) {
	t.Helper()
	_, err := parseChain("c.yaml", []byte(src), chain.Options{})
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in\n%v", w, err)
		}
	}
}

// warningsOf joins a loaded chain's warnings, for matching.
func warningsOf(l *chain.Loaded) string {
	var out []string
	for _, w := range l.Warnings {
		out = append(out, w.String())
	}
	return strings.Join(out, "\n")
}
