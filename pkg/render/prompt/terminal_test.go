package prompt

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestCtrlCEndsThePromptLine holds that a prompt given up on (Ctrl-C: its
// context ends while it waits) ends its line, so that what is printed
// next starts on a line of its own, not after "(Enter to pause): ^C".
func TestCtrlCEndsThePromptLine(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	typing, _ := io.Pipe() // a person who types nothing
	var out bytes.Buffer
	held := &holder{}
	decide := New(typing, &out).Decider(held)
	cancel()
	_, ok, err := decide(ctx, response.Decision{State: "gate", Links: []response.Link{{Transition: "go", Title: "Go"}}})
	if ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	if !strings.HasSuffix(out.String(), "Choose 1-1 or a name (Enter to pause): \n") {
		t.Errorf("the prompt's line is left open: %q", out.String())
	}
	if held.n != 1 {
		t.Errorf("the display was held %d times, want 1", held.n)
	}
}

// holder counts the times a display is held.
type holder struct{ n int }

func (h *holder) Hold(fn func()) {
	h.n++
	fn()
}
