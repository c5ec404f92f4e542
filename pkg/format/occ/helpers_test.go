package occ

import (
	"errors"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Parse reads chain text as pkg/load reads it, with this front-end the
// one format tried before chainrun's own readers.
func Parse(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return chain.ParseAs(file, data, opts, []chain.Format{Format})
}

func mustParse(t *testing.T, src string) *chain.Loaded {
	t.Helper()
	l, err := Parse("c.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return l
}

// findings are the diagnostics of a file that does not load, as a user
// reads them.
func findings(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src), chain.Options{})
	var ve *chain.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error, got %v", err)
	}
	var got []string
	for _, d := range ve.Diagnostics {
		got = append(got, d.String())
	}
	return got
}

// readAsOCC reports whether the chain's file was read as OCC's: this
// front-end set its Reading.
func readAsOCC(c *chain.Chain) bool { return c.Reading().Source == "OCC" }
