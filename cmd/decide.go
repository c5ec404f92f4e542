package cmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/run"
)

// humanDecider asks the person at the terminal to choose a link of a
// human decision point. Without a terminal on stdin (CI, a pipe) there is
// nobody to ask: it returns nil and the run pauses.
func (f *factory) humanDecider() run.Decider {
	t := f.terminal()
	if t == nil {
		return nil
	}
	return func(ctx context.Context, d run.Decision) (choice string, ok bool, err error) {
		t.ask(func() { choice, ok, err = t.decide(ctx, d) })
		return choice, ok, err
	}
}

// decide lists the links and reads a choice by number or name. An empty
// answer (or end of input) declines: the run pauses, resumable.
func (t *terminal) decide(ctx context.Context, d run.Decision) (string, bool, error) {
	out := t.out
	fmt.Fprintf(out, "\nDecision at %s", d.State)
	if d.Goal != "" {
		fmt.Fprintf(out, ": %s", d.Goal)
	}
	fmt.Fprintln(out)
	if d.Guidance != "" {
		fmt.Fprintf(out, "%s\n", d.Guidance)
	}
	width := 0
	for _, l := range d.Links {
		width = max(width, len(l.Transition))
	}
	for i, l := range d.Links {
		fmt.Fprintf(out, "  %d) %-*s  %s\n", i+1, width, l.Transition, l.Title)
	}
	for tries := 0; tries < 3; tries++ {
		fmt.Fprintf(out, "Choose 1-%d or a name (Enter to pause): ", len(d.Links))
		answer, err := t.readLine(ctx)
		if err != nil && answer == "" {
			if err == io.EOF {
				return "", false, nil
			}
			return "", false, err
		}
		answer = strings.TrimSpace(answer)
		if answer == "" {
			return "", false, nil
		}
		if n, err := strconv.Atoi(answer); err == nil && n >= 1 && n <= len(d.Links) {
			return d.Links[n-1].Transition, true, nil
		}
		for _, l := range d.Links {
			if l.Transition == answer {
				return answer, true, nil
			}
		}
		fmt.Fprintf(out, "%q is not one of the choices.\n", answer)
	}
	return "", false, nil
}
