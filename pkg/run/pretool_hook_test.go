package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestPreToolsNeedARunner: a program that links no runner of pre_tools
// fails a step with pre_tools, saying what it lacks, and still runs a
// step without any, whether alone or in a loop.
func TestPreToolsNeedARunner(t *testing.T) {
	saved := preToolsRunner
	preToolsRunner = nil
	defer func() { preToolsRunner = saved }()
	cases := []struct {
		name, src string
		fails     bool
	}{
		{"a step with pre_tools", preToolStep("      - {type: current_datetime, inject_as: x}\n"), true},
		{"a loop's items", "name: t\nsteps:\n  - {id: list, type: transform, expr: '[1, 2]', output_var: list}\n  - id: l\n    type: shell\n    depends_on: [list]\n    for_each: '{list}'\n    pre_tools:\n      - {type: env_var, var_name: HOME, inject_as: x}\n    run: 'printf %s \"{item}\"'\n", true},
		{"a step without", "name: t\nsteps:\n  - id: s\n    type: shell\n    run: 'printf ok'\n    output_var: out\noutput: out\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, t.TempDir(), tc.src, nil)
			if !tc.fails {
				if res.Status != record.Succeeded || res.Output != "ok" {
					t.Fatalf("status %s output %q error %s", res.Status, res.Output, res.Error)
				}
				return
			}
			if res.Status != record.Failed || !strings.Contains(res.Error, errNoPreTools.Error()) {
				t.Fatalf("status %s error %q, want failed with %q", res.Status, res.Error, errNoPreTools)
			}
		})
	}
}
