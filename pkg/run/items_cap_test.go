package run

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestAFanOutPastTheCapFailsItsStep: a list of more than MaxItems items —
// lines a command printed, a JSON array — given to a for_each, a loop's
// items_var or a parallel step's branches.for_each fails that step at
// once, naming the field, the count and the cap, before any item runs;
// a list at the cap is not refused for its size.
func TestAFanOutPastTheCapFailsItsStep(t *testing.T) {
	over := MaxItems + 1
	steps := map[string]string{
		"for_each over lines": `{id: fan, type: transform, for_each: "{list}", expr: '1', depends_on: [list]}`,
		"a loop's items_var":  `{id: fan, type: loop, items_var: list, step_template: {type: transform, expr: '1'}, depends_on: [list]}`,
	}
	for name, s := range steps {
		for _, gen := range []string{fmt.Sprintf("seq 1 %d", over), fmt.Sprintf(`seq -s, 1 %d | sed 's/^/[/; s/$/]/'`, over)} {
			t.Run(name+" "+strings.Fields(gen)[1], func(t *testing.T) {
				src := "name: t\nsteps:\n  - {id: list, type: cli, run: \"" + gen + "\", output_var: list}\n  - " + s + "\n"
				res := runChain(t, src, nil)
				got := step(t, res, "fan")
				want := fmt.Sprintf("has %d items, more than the %d", over, MaxItems)
				if got.Status != "failed" || !strings.Contains(got.Error, want) {
					t.Errorf("%s: %s %q, want failed saying %q", name, got.Status, got.Error, want)
				}
			})
		}
	}
}

// TestAWorkflowFanOutPastTheCapFailsItsTransition: a parallel executor's
// branches.for_each over a context list of more than MaxItems items
// fails its transition, naming the count and the cap.
func TestAWorkflowFanOutPastTheCapFailsItsTransition(t *testing.T) {
	nums := make([]string, MaxItems+1)
	for i := range nums {
		nums[i] = fmt.Sprint(i)
	}
	src := flowOf("", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: parallel
              branches: {for_each: "$.context.items", do: {kind: noop}}
      b: {terminal: true}
`)
	src = strings.Replace(src, "    initialState: a\n", "    initialContext: {items: ["+strings.Join(nums, ",")+"]}\n    initialState: a\n", 1)
	res := runFlow(t, src, Request{})
	want := fmt.Sprintf("branches.for_each $.context.items has %d items, more than the %d", MaxItems+1, MaxItems)
	if res.Status != record.Failed || !strings.Contains(res.Error, want) {
		t.Errorf("%s %q, want failed saying %q", res.Status, res.Error, want)
	}
}
