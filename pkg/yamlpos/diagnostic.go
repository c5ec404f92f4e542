package yamlpos

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

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
	// Lint marks a warning about how the chain is written rather than
	// what a run of it does (an output_var nothing in the chain reads,
	// which -o json may): validate shows it, a run does not repeat it.
	Lint bool `json:"lint,omitempty"`
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
// Callers map it to exit code 2: nothing ran. Warnings that may explain
// the errors (a misspelt key ignored) follow them, marked Warning.
type ValidationError struct {
	Diagnostics []Diagnostic
}

// Error lists the findings one per line, as file:line:col: message.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// NothingRan marks the error as one from before anything ran: the CLI
// maps it to exit 2.
func (e *ValidationError) NothingRan() bool { return true }

// IsValidation reports whether err is (or wraps) a ValidationError.
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}

// Diags collects the findings about one file; its readers may check
// steps concurrently. A reader of a peer's format sets Peer and Ignore
// so that keys the peer ignores are warned of, not refused (WalkOpts.Peer).
type Diags struct {
	mu   sync.Mutex
	File string
	// Src is the file's text, for explaining a YAML syntax error by what
	// its line holds.
	Src  []byte
	list []Diagnostic
	// soft counts the errors found while decoding that do not keep the
	// file from being validated (an unknown step kind).
	soft int
	// loose counts the errors that keep no other check from running (an
	// unknown field: the rest of its mapping is read all the same), so
	// one pass reports every error of a file.
	loose int
	// Peer names the runtime whose format the file is written in
	// (mcp-flowgate for a workflows: file): it ignores the keys it does
	// not know in a workflow, state, transition or executor, so chainrun
	// warns of them there instead of refusing the file (walkOpts.peer).
	Peer string
	// misspelt are the warnings about such keys close to one chainrun
	// knows: a file refused lists them after its errors, which a key
	// they stand for being missing may explain.
	misspelt []Diagnostic
	// Ignore, set with peer, reports a key the peer ignores.
	Ignore func(at Pos, prefix, key, meant string)
}

// SoftCount is how many errors found while decoding keep validation
// going (softErrorf).
func (d *Diags) SoftCount() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.soft
}

// Misspelled are the warnings about ignored keys close to a known one,
// which a refused file lists after its errors.
func (d *Diags) Misspelled() []Diagnostic {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Diagnostic(nil), d.misspelt...)
}

// AddMisspelt adds a warning about an ignored key close to a known one:
// a refused file lists it after its errors (misspelled).
func (d *Diags) AddMisspelt(x Diagnostic) {
	if d.Add(x) {
		d.mu.Lock()
		d.misspelt = append(d.misspelt, x)
		d.mu.Unlock()
	}
}

// Blocking is how many errors so far may keep later checks from running.
func (d *Diags) Blocking() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, x := range d.list {
		if !x.Warning {
			n++
		}
	}
	return n - d.loose
}

// LooseErrorf adds an error after which every check still runs.
func (d *Diags) LooseErrorf(p Pos, format string, args ...any) {
	if d.Add(Diagnostic{File: d.File, Pos: p, Message: fmt.Sprintf(format, args...)}) {
		d.mu.Lock()
		d.loose++
		d.mu.Unlock()
	}
}

// Errorf adds an error that keeps the checks depending on what it is
// about from running (Blocking counts it).
func (d *Diags) Errorf(p Pos, format string, args ...any) {
	d.Add(Diagnostic{File: d.File, Pos: p, Message: fmt.Sprintf(format, args...)})
}

// SoftErrorf adds an error found while decoding after which validation
// still runs. Validation finding the same again adds nothing: add drops
// a finding made twice.
func (d *Diags) SoftErrorf(p Pos, format string, args ...any) {
	if d.Add(Diagnostic{File: d.File, Pos: p, Message: fmt.Sprintf(format, args...)}) {
		d.mu.Lock()
		d.soft++
		d.mu.Unlock()
	}
}

// Warnf adds a warning: the file still loads and runs.
func (d *Diags) Warnf(p Pos, format string, args ...any) {
	d.Add(Diagnostic{File: d.File, Pos: p, Message: fmt.Sprintf(format, args...), Warning: true})
}

// Lintf adds a Lint warning: validate's to show, not every run's.
func (d *Diags) Lintf(p Pos, format string, args ...any) {
	d.Add(Diagnostic{File: d.File, Pos: p, Message: fmt.Sprintf(format, args...), Warning: true, Lint: true})
}

// Add adds a finding unless the same one is already there (a finding
// reached twice, through a YAML alias say), reporting whether it did.
func (d *Diags) Add(x Diagnostic) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, y := range d.list {
		if y == x {
			return false // one finding reached twice (through an alias, say)
		}
	}
	d.list = append(d.list, x)
	return true
}

// Sort orders findings by position, so output does not depend on the
// order in which steps were checked.
func (d *Diags) Sort() {
	sort.SliceStable(d.list, func(i, j int) bool {
		a, b := d.list[i].Pos, d.list[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
}

// Errs are the errors found, in the order found (Sort orders them).
func (d *Diags) Errs() []Diagnostic {
	var out []Diagnostic
	for _, x := range d.list {
		if !x.Warning {
			out = append(out, x)
		}
	}
	return out
}

// Warnings are the warnings found, in the order found.
func (d *Diags) Warnings() []Diagnostic {
	var out []Diagnostic
	for _, x := range d.list {
		if x.Warning {
			out = append(out, x)
		}
	}
	return out
}

// YAMLError turns a YAML library error into positioned findings. within,
// when not nil, is the mapping that was being decoded: the finding then
// names the field and prefix says whose field it is.
func (d *Diags) YAMLError(err error, fallback Pos, within *yaml.Node, prefix string) {
	yamlFindings(err, fallback, within, prefix, d.Errorf)
}

// TypeError reports a value the YAML library could not read into its
// field (text where a number is expected): the field stays unset and
// every other check still runs, so one pass reports every error of a
// file. field names whose value it is ("step \"a\": timeout_ms: ").
func (d *Diags) TypeError(err error, at *yaml.Node, field string) {
	yamlFindings(err, Of(at), at, field, func(p Pos, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if !strings.HasPrefix(msg, field) {
			msg = field + msg
		}
		d.LooseErrorf(p, "%s", msg)
	})
}

// yamlFindings turns a YAML library error into positioned findings, each
// given to report.
func yamlFindings(err error, fallback Pos, within *yaml.Node, prefix string, report func(Pos, string, ...any)) {
	list := loadErrors(err)
	for _, e := range list {
		p := Pos{Line: e.Mark.Line, Col: e.Mark.Column}
		msg := CleanMessage(e.Message)
		if key := keyAt(within, p); key != "" {
			msg = prefix + key + ": " + msg
		}
		report(p, "%s", msg)
	}
	if len(list) > 0 {
		return
	}
	report(fallback, "%s", CleanMessage(err.Error()))
}

// SyntaxError reports a file that is not YAML: each error at its place,
// explained in plain words where the parser's are cryptic.
func (d *Diags) SyntaxError(err error) {
	list := loadErrors(err)
	for _, e := range list {
		p := Pos{Line: e.Mark.Line, Col: e.Mark.Column}
		d.Errorf(p, "%s", explainYAML(CleanMessage(e.Message), lineOf(d.Src, p.Line), p.Col))
	}
	if len(list) == 0 {
		d.Errorf(Pos{Line: 1, Col: 1}, "%s", CleanMessage(err.Error()))
	}
}

// loadErrors are the positioned errors a YAML library error holds.
func loadErrors(err error) []*yaml.LoadError {
	var many *yaml.LoadErrors
	var one *yaml.LoadError
	switch {
	case errors.As(err, &many):
		return many.Errors
	case errors.As(err, &one):
		return []*yaml.LoadError{one}
	}
	return nil
}

var constructPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^cannot construct (\\w+)(?: (.*))? into (.+)$") })

var unknownFieldPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^field (\S+) not found in type \S+$`) })

// yamlKinds are the Go types of the model as a chain author knows them.
var yamlKinds = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"int": "a whole number", "float64": "a number", "*float64": "a number", "bool": "true or false",
		"string": "text", "[]string": "a list", "map[string]string": "a mapping",
	}
})

// CleanMessage is a YAML library message in a chain author's words: a
// type it could not construct says what was given and what is expected
// (`x` is text here; a number is expected), an unknown field is named.
func CleanMessage(m string) string {
	m = strings.TrimPrefix(m, "yaml: ")
	m = strings.ReplaceAll(m, "!!", "")
	if g := unknownFieldPattern().FindStringSubmatch(m); g != nil {
		return fmt.Sprintf("unknown field %q", g[1])
	}
	if g := constructPattern().FindStringSubmatch(m); g != nil {
		want := yamlKinds()[g[3]]
		if want == "" {
			want = "a " + strings.TrimPrefix(strings.TrimPrefix(g[3], "[]"), "*")
			if strings.HasPrefix(g[3], "[]") {
				want = "a list"
			} else if strings.Contains(g[3], ".") || strings.HasPrefix(g[3], "map[") {
				want = "a mapping"
			}
		}
		if g[2] == "" {
			return fmt.Sprintf("%s is given here; %s is expected", article(g[1]), want)
		}
		return fmt.Sprintf("%s is %s here; %s is expected", g[2], article(g[1]), want)
	}
	return m
}

func article(kind string) string {
	switch kind {
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	case "str":
		return "text"
	case "int", "float":
		return "a number"
	case "bool":
		return "a boolean"
	}
	return kind
}

// keyAt returns the key of mapping m whose value holds position p.
func keyAt(m *yaml.Node, p Pos) string {
	if m == nil || m.Kind != yaml.MappingNode {
		return ""
	}
	key := ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Line < p.Line || k.Line == p.Line && k.Column <= p.Col {
			key = k.Value
		}
	}
	return key
}
