package run

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestRetryMaxDelayCapsTheWaits: backoff grows each wait until
// max_delay_ms, which caps it (mcp-flowgate's maxDelayMs reads into it).
func TestRetryMaxDelayCapsTheWaits(t *testing.T) {
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
steps:
  - id: flaky
    type: cli
    command: "false"
    retry: {max: 4, delay_ms: 2, backoff: 10, max_delay_ms: 5}
`, nil, WithEvents(rec))
	if res.Status != record.Failed {
		t.Fatalf("status = %s, want failed", res.Status)
	}
	var waits []string
	for _, e := range rec.Events() {
		if e.Type == event.StepAttempt && e.Status == event.Retrying {
			waits = append(waits, e.Detail)
		}
	}
	if want := []string{"retry in 2ms", "retry in 5ms", "retry in 5ms"}; !slices.Equal(waits, want) {
		t.Errorf("waits = %q, want %q", waits, want)
	}
}
