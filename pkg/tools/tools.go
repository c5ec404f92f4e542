package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Env is where a step's tools act. The tool loop makes one per step and
// passes it to every call, so that all of a step's calls share its
// directory and its process settings.
type Env struct {
	// Dir is the step's working directory: file tools are confined to it
	// (a path that escapes it by .. or through a symlink is refused), and
	// Bash runs in it. Absolute.
	Dir string
	// Grace is the time Bash's process group gets between TERM and KILL
	// when its timeout passes or the run is cancelled (0: executor default).
	Grace time.Duration
	// Force, when closed, kills Bash's process group at once, grace or not.
	Force <-chan struct{}
	// Environ is Bash's environment (nil: os.Environ()).
	Environ []string
	// Commands limits the programs Bash may run (the zero policy limits
	// nothing); a command it refuses is not run.
	Commands CommandPolicy
	// Fetch and Search are how WebFetch and WebSearch reach the network:
	// a page's text, a search's results (nil: the tool says it cannot).
	Fetch  func(ctx context.Context, url string) (string, error)
	Search func(ctx context.Context, query string) (string, error)
}

// Spec describes a tool to a model: its name, what it does and the JSON
// Schema of its arguments (an object schema). It is what a tool loop
// offers the model, in the shape of llm.Tool.
type Spec struct {
	Name        string
	Description string
	Schema      map[string]any
}

// Names lists the built-in tools: Read, Write, Edit, Glob, Grep, Bash, and
// the network's WebFetch and WebSearch, which OCC's chains list.
var Names = []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash", "WebFetch", "WebSearch"}

// tool is one built-in: how it is described, what arguments it takes and
// what it does with them.
type tool struct {
	description string
	params      []param
	run         func(ctx context.Context, w *workspace, v values) (string, error)
}

// builtins holds the tools of Names.
var builtins = map[string]tool{
	"Read":  readTool,
	"Write": writeTool,
	"Edit":  editTool,
	"Glob":  globTool,
	"Grep":  grepTool,
	"Bash":  bashTool,
	// the network's, as OCC's chains name them
	"WebFetch":  webFetchTool,
	"WebSearch": webSearchTool,
}

// Lookup returns the spec of a built-in tool, so that a tool loop can offer
// it to a model. Each call returns a fresh schema the caller may change.
func Lookup(name string) (Spec, bool) {
	t, ok := builtins[name]
	if !ok {
		return Spec{}, false
	}
	return Spec{Name: name, Description: t.description, Schema: schemaOf(t.params)}, true
}

// Run executes built-in tool `name` with the model's JSON arguments and
// returns the text the model reads. An error is a failed call whose message
// goes back to the model as an error result (bad or missing arguments, a
// path outside Dir, a missing file, an old_string not found, a command that
// timed out); it never panics on any input.
func Run(ctx context.Context, env Env, name string, args json.RawMessage) (string, error) {
	t, ok := builtins[name]
	if !ok {
		return "", fmt.Errorf("unknown tool %q; the built-in tools are %s", name, strings.Join(Names, ", "))
	}
	v, err := decode(t.params, args)
	if err != nil {
		return "", clean(fmt.Errorf("%s: %w", name, err))
	}
	w, err := newWorkspace(env)
	if err != nil {
		return "", clean(err)
	}
	defer w.close()
	out, err := t.run(ctx, w, v)
	if err != nil {
		return "", clean(err)
	}
	return strings.ToValidUTF8(out, "\uFFFD"), nil
}

// clean keeps an error's message valid UTF-8 (file names on disk need not
// be) without hiding what it wraps.
func clean(err error) error {
	if utf8.ValidString(err.Error()) {
		return err
	}
	return &validError{err}
}

type validError struct{ err error }

func (e *validError) Error() string { return strings.ToValidUTF8(e.err.Error(), "\uFFFD") }
func (e *validError) Unwrap() error { return e.err }

// errEmpty is the message of a required text argument left empty.
func errEmpty(arg string) error { return errors.New(arg + " must not be empty") }
