package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/given"
)

// TestGrants: --grant takes the built-in tools and the chain's own; a
// name that is neither is refused naming the close one and every tool.
func TestGrants(t *testing.T) {
	c := load(t, `
name: t
tools:
  count: {description: c, executor: {kind: cli, run: 'echo 1'}}
steps:
  - {id: a, model: m/x, prompt: hi, tools: [count]}
`)
	got, err := given.Grants(c, []string{"Bash", "count"})
	if err != nil || !got["Bash"] || !got["count"] {
		t.Errorf("Grants = %v, %v", got, err)
	}
	if got, err := given.Grants(c, nil); got != nil || err != nil {
		t.Errorf("no --grant: %v, %v", got, err)
	}
	_, err = given.Grants(c, []string{"Bsh"})
	var ie *given.InputError
	if err == nil || !strings.Contains(err.Error(), "--grant Bsh: no such tool (did you mean Bash?); tools are Read, Write, Edit, Glob, Grep, Bash, WebFetch, WebSearch, count") {
		t.Errorf("an unknown tool: %v", err)
	} else if !errors.As(err, &ie) {
		t.Errorf("not an input error (exit 2): %T", err)
	}
	if tools := given.Tools(nil); len(tools) != 8 {
		t.Errorf("Tools(nil) = %v", tools)
	}
}
