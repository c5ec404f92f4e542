package flowgate

import (
	"strings"
	"testing"
	"time"
)

// TestTimeoutMsIsAStepAlias: mcp-flowgate's earlier timeoutMs is read as
// timeout_ms on every step, a DAG chain's as a workflow's executor, with
// its note at its line; writing both is refused; a misspelling of it
// suggests timeout_ms (the lines pkg/chain's kinds.golden held before the
// alias moved here). pkg/chain alone does not know it (its kinds.golden).
func TestTimeoutMsIsAStepAlias(t *testing.T) {
	const note = "timeoutMs: read as timeout_ms (an earlier mcp-flowgate spelling of the executor's time limit)"
	dag := "name: c\nsteps:\n  - {id: a, type: cli, command: 'true', timeoutMs: 250}\n"
	l := mustParse(t, dag)
	if got := l.Chain.Steps[0].TimeoutMS; got != 250 {
		t.Errorf("timeout_ms %d, want 250", got)
	}
	if said := warningsOf(l); !strings.Contains(said, `c.yaml:3:41: warning: step "a": `+note) {
		t.Errorf("warnings\n%s\nhold no note", said)
	}
	l = mustParse(t, executorFile("", "kind: cli\ncommand: 'true'\ntimeoutMs: 1500\n"))
	if e := l.Chain.Workflow.State("a").Transitions[0].Executor; time.Duration(e.TimeoutMS)*time.Millisecond != 1500*time.Millisecond {
		t.Errorf("executor timeout_ms %d, want 1500", e.TimeoutMS)
	}
	if said := warningsOf(l); !strings.Contains(said, `c.yaml:13:15: warning: state "a": transition "go": executor: `+note) {
		t.Errorf("warnings\n%s\nhold no note", said)
	}
	expectLoad(t, "name: c\nsteps:\n  - {id: a, type: cli, command: 'true', timeoutMs: 1, timeout_ms: 2}\n", "not both")
	expectLoad(t, "name: c\nsteps:\n  - {id: a, type: cli, command: 'true', timeoutMss: 1}\n", `unknown field "timeoutMss" (did you mean timeout_ms?)`)
}
