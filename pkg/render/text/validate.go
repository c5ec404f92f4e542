package text

import (
	"errors"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Verdict is one chain file's validation as `chainrun validate` shows
// it; its JSON is the entry of `validate -o json`.
type Verdict struct {
	Name     string             `json:"name,omitempty"`
	File     string             `json:"file"`
	Valid    bool               `json:"valid"`
	Errors   []chain.Diagnostic `json:"errors,omitempty"`
	Warnings []chain.Diagnostic `json:"warnings,omitempty"`
}

// VerdictOf is the verdict on a chain file: l is what loaded (nil when
// nothing did), err why it is invalid (nil when valid); an error that is
// not a list of findings becomes one finding on the file.
func VerdictOf(file, name string, l *chain.Loaded, err error) Verdict {
	r := Verdict{Name: name, File: file, Valid: err == nil}
	if l != nil {
		r.Name = l.Chain.Name
		r.Warnings = l.Warnings
	}
	var ve *chain.ValidationError
	if errors.As(err, &ve) {
		r.Errors = ve.Diagnostics
	} else if err != nil {
		r.Errors = []chain.Diagnostic{{File: file, Message: err.Error()}}
	}
	return r
}

// Verdicts writes every finding to errOut, file:line:col first, and
// "ok  NAME  FILE" to w for each valid chain.
func Verdicts(w, errOut io.Writer, verdicts []Verdict) {
	for _, r := range verdicts {
		for _, d := range append(r.Errors, r.Warnings...) {
			fmt.Fprintln(errOut, d.String())
		}
		if r.Valid {
			fmt.Fprintf(w, "ok  %s  %s\n", r.Name, r.File)
		}
	}
}
