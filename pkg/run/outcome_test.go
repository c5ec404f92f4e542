package run

import (
	"context"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// A terminal state may declare that ending there is not a success: the
// run ends failed or cancelled (exit 1), so CI can tell an abort from a
// deploy; a terminal state without outcome still succeeds.
func TestTerminalStateOutcome(t *testing.T) {
	src := `
version: "1"
workflows:
  ship:
    initialState: start
    states:
      start:
        goal: choose
        transitions:
          go: {target: shipped, actor: human}
          stop: {target: aborted, actor: human}
          broke: {target: broken, actor: human}
      shipped: {terminal: true}
      aborted: {terminal: true, outcome: cancelled}
      broken: {terminal: true, outcome: failed}
`
	for take, want := range map[string]record.Status{"go": record.Succeeded, "stop": record.Cancelled, "broke": record.Failed} {
		res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Take: take})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != want {
			t.Errorf("--take %s: status %s, want %s (error %q)", take, res.Status, want, res.Error)
		}
		if wantOutcome := map[string]string{"go": "", "stop": "cancelled", "broke": "failed"}[take]; res.Outcome != wantOutcome {
			t.Errorf("--take %s: outcome %q", take, res.Outcome)
		}
	}
}
