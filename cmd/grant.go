package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// toolAsker asks the person at the terminal whether one tool call outside
// a step's tools may run. Without a terminal on stdin there is nobody to
// ask: it returns nil and such calls are denied.
func (f *factory) toolAsker() run.ToolAsker {
	t := f.terminal()
	if t == nil {
		return nil
	}
	return func(ctx context.Context, r run.ToolCallRequest) (ok bool, err error) {
		t.ask(func() { ok, err = t.allow(ctx, r) })
		return ok, err
	}
}

// allow shows exactly the call (tool, arguments, digest) and reads y or
// n; anything but yes refuses.
func (t *terminal) allow(ctx context.Context, r run.ToolCallRequest) (bool, error) {
	out := t.out
	args := r.Arguments
	if len(args) > 400 {
		args = args[:400] + "…"
	}
	fmt.Fprintf(out, "\nStep %s wants to call %s, which it does not list:\n  %s(%s)  [digest %s]\nAllow this one call? [y/N]: ", r.Step, r.Tool, r.Tool, args, r.Digest)
	answer, err := t.readLine(ctx)
	if err != nil && answer == "" {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// grants checks --grant names against the tools a run can call: the
// built-in ones and the chain's own.
func grants(c *chain.Chain, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		if !contains(chain.BuiltinTools, n) && c.Tool(n) == nil {
			known := append([]string(nil), chain.BuiltinTools...)
			for _, t := range c.Tools {
				known = append(known, t.Name)
			}
			return nil, usagef("--grant %s: no such tool; tools are %s", n, strings.Join(known, ", "))
		}
		out[n] = true
	}
	return out, nil
}
