package chain

import (
	"fmt"
	"strings"
)

// LenientInputs reports whether the chain is a workflow read as
// mcp-flowgate's (WorkflowDialect.LenientInputs), whose inputs mean what
// mcp-flowgate's mean: a workflow without inputSchema takes any input, a
// reference to an input it does not declare is accepted with a warning,
// and an input not given resolves as
// mcp-flowgate resolves it in each place (a cli argument as written, a
// mapping's value null, a guard's operand null, a goal's placeholder
// "(x: unset)", an mcp map's key left out). chainrun's own DAG chains and
// contenox task chains keep their own rules.
func (c *Chain) LenientInputs() bool {
	return c.Workflow != nil && c.lenientInputs
}

// InputsOpen reports whether the chain takes inputs it does not declare:
// a workflow whose inputSchema leaves its properties open (no
// additionalProperties: false), and a workflow of a workflows: file
// without inputSchema, as mcp-flowgate starts one with any input.
func (c *Chain) InputsOpen() bool {
	if c.Workflow == nil {
		return false
	}
	if c.Workflow.Schema == nil {
		return c.lenientInputs && c.Workflow.InputSchema == nil
	}
	ap, ok := c.Workflow.InputSchema["additionalProperties"].(bool)
	return !ok || ap
}

// undeclaredInput returns the input a JSONPath ($.workflow.input.x, or
// $.input.x) of a workflows: file's workflow reads when the workflow does
// not declare it: mcp-flowgate accepts such a reference, so it is warned
// of, not refused.
func (v *validator) undeclaredInput(raw string) (string, bool) {
	if !v.c.LenientInputs() {
		return "", false
	}
	name, ok := InputRead(raw)
	if !ok || v.hasInput(name) {
		return "", false
	}
	return name, true
}

// InputRead returns the input a JSONPath reads: x of $.workflow.input.x
// (mcp-flowgate's) or of $.input.x.
func InputRead(raw string) (string, bool) {
	name, path := JSONPathHead(strings.Replace(raw, "$.workflow.input", "$.input", 1))
	if name != "input" || len(path) == 0 {
		return "", false
	}
	return path[0], true
}

// undeclaredInputNote says why a reference to an undeclared input of a
// workflows: file's workflow is accepted and what it is when the input
// is not given (unset, as in that place mcp-flowgate makes it).
func (v *validator) undeclaredInputNote(name, unset string) string {
	taken := "its workflow takes any input, as it declares no inputSchema"
	switch {
	case v.c.Workflow.InputSchema == nil:
	case v.c.InputsOpen():
		taken = "its inputSchema leaves other inputs open"
	default:
		taken = "its inputSchema's additionalProperties: false refuses the input, so it is never given"
	}
	return fmt.Sprintf("no input is named %s%s: accepted, as mcp-flowgate accepts it (%s); not given, %s", name, didYouMean(name, v.inputNames()), taken, unset)
}

// Unset is what a goal's or guidance's placeholder shows when its path
// selects nothing: "(last: unset)", its last segment, as mcp-flowgate's
// templating shows it.
func Unset(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	return "(" + path + ": unset)"
}
