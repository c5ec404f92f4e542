package chain

import (
	"errors"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Diagnostic is one finding about a chain file, positioned so a user can
// go straight to the text to change.
type Diagnostic struct {
	File    string `json:"file"`
	Pos     Pos    `json:"pos"`
	Message string `json:"message"`
	// Warning findings do not stop a chain from running.
	Warning bool `json:"warning,omitempty"`
}

// String renders the finding as file:line:col: message.
func (d Diagnostic) String() string {
	loc := d.File
	if d.Pos.Line > 0 {
		loc += ":" + d.Pos.String()
	}
	if d.Warning {
		return loc + ": warning: " + d.Message
	}
	return loc + ": " + d.Message
}

// ValidationError carries every error found in one or more chain files.
// Callers map it to exit code 2: nothing ran.
type ValidationError struct {
	Diagnostics []Diagnostic
}

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// IsValidation reports whether err is (or wraps) a ValidationError.
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}

// diags collects findings for one file.
type diags struct {
	file string
	list []Diagnostic
}

func (d *diags) errorf(p Pos, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: d.file, Pos: p, Message: fmt.Sprintf(format, args...)})
}

func (d *diags) warnf(p Pos, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: d.file, Pos: p, Message: fmt.Sprintf(format, args...), Warning: true})
}

func (d *diags) errs() []Diagnostic {
	var out []Diagnostic
	for _, x := range d.list {
		if !x.Warning {
			out = append(out, x)
		}
	}
	return out
}

func (d *diags) warnings() []Diagnostic {
	var out []Diagnostic
	for _, x := range d.list {
		if x.Warning {
			out = append(out, x)
		}
	}
	return out
}

// yamlError turns a YAML library error into positioned findings.
func (d *diags) yamlError(err error, fallback Pos) {
	var many *yaml.LoadErrors
	if errors.As(err, &many) {
		for _, e := range many.Errors {
			d.errorf(Pos{e.Mark.Line, e.Mark.Column}, "%s", cleanYAMLMessage(e.Message))
		}
		return
	}
	var one *yaml.LoadError
	if errors.As(err, &one) {
		d.errorf(Pos{one.Mark.Line, one.Mark.Column}, "%s", cleanYAMLMessage(one.Message))
		return
	}
	d.errorf(fallback, "%s", cleanYAMLMessage(err.Error()))
}

func cleanYAMLMessage(m string) string {
	m = strings.TrimPrefix(m, "yaml: ")
	return strings.ReplaceAll(m, "!!", "")
}
