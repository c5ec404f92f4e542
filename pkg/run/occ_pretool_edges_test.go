package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// OCC 59941a8 mcp-server/tests/pretool-coverage-boost.test.ts ("returns
// empty string for empty var_name", "returns default_value for empty
// var_name when provided", "captures both stdout and stderr on non-zero
// exit") and 13d9853 pretool-executor.ts: an env_var without var_name is
// its default_value, and a bash pre_tool with stderr: true keeps what its
// script wrote whatever its exit status. chainrun's own format refuses the
// first when it loads and fails the second.
func TestOCCPreToolEdges(t *testing.T) {
	const steps = `steps:
  - id: s
    type: transform
    operation: template
    template_str: "[{e}] [{d}] [{b}]"
    pre_tools:
      - {type: env_var, var_name: "", inject_as: e}
      - {type: env_var, default_value: "fallback text", inject_as: d}
      - {type: bash, command: "echo first; echo second >&2; exit 3", stderr: true, inject_as: b}
    output_var: out
output: out
`
	res := runChain(t, occHead+steps, nil)
	want := "[] [fallback text] [first\n[stderr]\nsecond\n]"
	if res.Status != record.Succeeded || outputText(res) != want {
		t.Fatalf("status %s output %q, want %q (%s)", res.Status, outputText(res), want, res.Error)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "exited with code 3: with stderr: true what it wrote is the value") {
		t.Fatalf("warnings %q", res.Warnings)
	}
	if _, err := chain.Parse("own.yaml", []byte("name: t\n"+steps), chain.Options{}); err == nil || !strings.Contains(err.Error(), "needs var_name") {
		t.Fatalf("own format: %v", err)
	}
	// a bash pre_tool that fails without stderr: true is a failure, in OCC as here
	res = runChain(t, occHead+`steps:
  - {id: s, type: transform, operation: template, template_str: "{b}", pre_tools: [{type: bash, command: "exit 4", inject_as: b}], output_var: out}
output: out
`, nil)
	if !strings.Contains(outputText(res), "[PRE-TOOL ERROR:") {
		t.Fatalf("output %q", outputText(res))
	}
}
