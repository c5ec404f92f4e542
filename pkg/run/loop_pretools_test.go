package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// A loop's pre_tools run once per item and see {item}.
func TestLoopPreToolsRunPerItem(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: list, type: transform, expr: '["a","b"]', output_var: list}
  - id: each
    type: shell
    depends_on: [list]
    for_each: "{list}"
    pre_tools:
      - {type: shell, run: 'echo pre-{item}', inject_as: pre}
    run: 'echo {item} {pre}'
    output_var: out
output: out
`, nil)
	if res.Status != record.Succeeded {
		t.Fatalf("status %s error %s", res.Status, res.Error)
	}
	if got := asJSON(t, res.Output); got != `["a pre-a","b pre-b"]` {
		t.Errorf("output %s", got)
	}
}
