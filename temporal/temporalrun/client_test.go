package temporalrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// TestStartRefusesHandlers: a chain with lifecycle handlers is refused
// before it starts (exit 2), pointing at its handlers.
func TestStartRefusesHandlers(t *testing.T) {
	l, err := chain.Parse("c.yaml", []byte("name: c\nsteps: [{id: a, type: noop}]\nhandlers:\n  on_exit: {type: noop}\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Engine{}).start(run.Request{Chain: l.Chain})
	var re *RunError
	if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), "c.yaml:4:3: handlers: lifecycle handlers do not run on Temporal yet") {
		t.Errorf("got %v", err)
	}
}
