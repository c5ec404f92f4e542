package run

import (
	"errors"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/confine"
)

// A chain-defined tool runs with arguments a model chose, so every path
// its executor names (a file executor's path, a cli executor's cwd) is
// confined to the calling step's directory exactly as the built-in tools
// are: it is opened through an os.Root at that directory, so ".." and
// symbolic links that lead out fail, whatever the path's shape.

// A decision's arguments are chosen the same way, by a model, a caller's
// --arg or an MCP client: a path or cwd whose template reads them
// ({arguments.x}; in a pipeline, the step before's output) is confined
// likewise, to the directory the step would run in, which the chain
// names (its cwd, else the run's directory).

// A decision's argument can be handed on before it makes a path: copied
// to the context by an output mapping, selected by a $.-path, passed to a
// called workflow or chain as its input. So in a workflow whose decisions
// take arguments, and in what such a workflow calls, every path or cwd
// taken from the run's data is confined (confines); only a path the
// chain writes out itself is not.

// takesArguments reports whether a decision of w can be given arguments
// (a transition with an inputSchema): only then can the run's data hold
// what a model or an MCP client chose, so only then are the paths and
// cwds its executors render from that data confined. A workflow without
// one reads its paths from what the person who ran it gave, as a DAG
// chain does.
func takesArguments(w *chain.Workflow) bool {
	if w == nil {
		return false
	}
	for _, st := range w.States {
		for _, t := range st.Transitions {
			if t.InputSchema != nil {
				return true
			}
		}
	}
	return false
}

// confines reports whether a path or cwd template, rendered here, is
// confined: it reads a decision's arguments, or (chosenPaths) any of the
// run's data. fromData says the path is a $.-path, which reads the run's
// data whatever the template.
func (x *Execution) confines(t *chain.Template, fromData bool) bool {
	if fromArguments(t) {
		return true
	}
	return x.chosenPaths && (fromData || t != nil && len(t.Refs()) > 0)
}

// fromArguments reports whether a path template takes part of its value
// from a decision's arguments.
func fromArguments(t *chain.Template) bool {
	if t == nil {
		return false
	}
	for _, r := range t.Refs() {
		if r.Name == "arguments" {
			return true
		}
	}
	return false
}

// Refused is err of pkg/run/confine as a step reads it: a refusal (a path
// that leaves its directory, what is not a regular file) fails the step
// for good; any other error stays what it is.
func Refused(err error) error {
	var r *confine.Refusal
	if errors.As(err, &r) {
		return &permanentError{err}
	}
	return err
}

// confinedDir is a cwd d under jail (confine.Dir).
func confinedDir(jail, d string) (string, error) {
	dir, err := confine.Dir(jail, d)
	return dir, Refused(err)
}

// WriteFile writes content to p (absolute, or relative to base), under
// jail when it is set: a write_file pre_tool's write (confine.WriteFile),
// its refusals failing the step for good.
func WriteFile(jail, base, p string, content []byte, appending bool) (string, error) {
	written, err := confine.WriteFile(jail, base, p, content, appending)
	return written, Refused(err)
}
