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
		// a refused file's warnings (keys ignored that may explain its
		// errors) follow its errors, marked
		for _, d := range ve.Diagnostics {
			if d.Warning {
				r.Warnings = append(r.Warnings, d)
			} else {
				r.Errors = append(r.Errors, d)
			}
		}
	} else if err != nil {
		r.Errors = []chain.Diagnostic{{File: file, Message: err.Error()}}
	}
	return r
}

// VerdictsOf is one verdict per chain a named file holds: a file of
// several workflows gets a line for each, not only its first.
func VerdictsOf(file, name string, l *chain.Loaded, err error) []Verdict {
	if l == nil || len(l.Chains) < 2 || l.Named(name) != nil {
		return []Verdict{VerdictOf(file, name, l, err)}
	}
	out := make([]Verdict, len(l.Chains))
	for i, c := range l.Chains {
		one := &chain.Loaded{Chain: c, Chains: l.Chains}
		if i == 0 {
			one.Warnings = l.Warnings
		}
		out[i] = VerdictOf(file, c.Name, one, err)
	}
	return out
}

// InvalidFiles counts the files with an invalid chain, and the files: a
// file of several workflows counts once.
func InvalidFiles(verdicts []Verdict) (bad, files int) {
	seen, failed := map[string]bool{}, map[string]bool{}
	for _, r := range verdicts {
		seen[r.File] = true
		if !r.Valid {
			failed[r.File] = true
		}
	}
	return len(failed), len(seen)
}

// Verdicts writes every finding to errOut, file:line:col first (a
// finding of a file of several workflows once), and "ok  NAME  FILE" to w
// for each valid chain.
func Verdicts(w, errOut io.Writer, verdicts []Verdict) {
	said := map[string]bool{}
	for _, r := range verdicts {
		for _, d := range append(r.Errors, r.Warnings...) {
			if line := r.File + "\x00" + d.String(); !said[line] {
				said[line] = true
				fmt.Fprintln(errOut, d.String())
			}
		}
		if r.Valid {
			fmt.Fprintf(w, "ok  %s  %s\n", r.Name, r.File)
		}
	}
}

// RunWarnings prints, one a line, the warnings of a chain a run repeats:
// all but the Lint ones, which are validate's to show.
func RunWarnings(w io.Writer, l *chain.Loaded) {
	for _, d := range l.Warnings {
		if !d.Lint {
			fmt.Fprintln(w, d.String())
		}
	}
}
