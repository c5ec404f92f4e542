package github

import (
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Outputs appends the run's step outputs to the file $GITHUB_OUTPUT
// names, for the job's later steps to read as
// steps.<id>.outputs.<name>: run_id, status, exit_code (chainrun's own:
// exitCode) and output (the chain's output as -o text prints it: a
// string as it is, other values as JSON, "" when there is none). A value
// of more than one line is written in the multi-line form,
// name<<DELIMITER … DELIMITER, with a random delimiter the value does not
// hold. No secret input's value is ever written: each is replaced by ***.
// A file that cannot be written is a warning of the result; the run's
// result and exit code do not change. A nil Renderer, or no
// $GITHUB_OUTPUT, does nothing.
func (g *Renderer) Outputs(res *record.Result, exitCode int) {
	if g == nil || g.output == "" {
		return
	}
	var b strings.Builder
	for _, o := range []struct{ name, value string }{
		{"run_id", res.RunID},
		{"status", string(res.Status)},
		{"exit_code", strconv.Itoa(exitCode)},
		{"output", render.Text(res.Output)},
	} {
		writeOutput(&b, o.name, masked(o.value, g.secrets))
	}
	if err := appendFile(g.output, b.String()); err != nil {
		res.Warnings = append(res.Warnings, "writing the step outputs ($GITHUB_OUTPUT): "+err.Error())
	}
}

// writeOutput writes one output line, or its multi-line form when the
// value holds a line break (GitHub reads name=value up to the line's end).
func writeOutput(b *strings.Builder, name, value string) {
	if !strings.ContainsAny(value, "\r\n") {
		b.WriteString(name + "=" + value + "\n")
		return
	}
	delim := newDelimiter()
	for strings.Contains(value, delim) {
		delim = newDelimiter()
	}
	b.WriteString(name + "<<" + delim + "\n" + value + "\n" + delim + "\n")
}

// newDelimiter is a fresh delimiter for a multi-line output, which the
// value cannot know in advance (tests replace it).
var newDelimiter = func() string {
	var buf [16]byte
	_, _ = rand.Read(buf[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "ghadelimiter_" + hex.EncodeToString(buf[:])
}

// masked is v with every secret form replaced by ***, the longest first
// so that no part of one is left; a form under four characters only
// where it is the whole value (masking every "7" of a text tells the
// secret anyway), as the engine masks results.
func masked(v string, secrets []string) string {
	forms := append([]string(nil), secrets...)
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	for _, f := range forms {
		if v == f || strings.TrimSpace(v) == f {
			return "***"
		}
		if len(f) >= 4 {
			v = strings.ReplaceAll(v, f, "***")
		}
	}
	return v
}
