package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// preTools runs a step's pre_tools in order and adds their data to the
// step's scope under each inject_as (reference 004). on_error decides what
// a failure means: fail the step (the default), inject the error text, or
// skip the injection (the variable is then empty).
func (x *execution) preTools(ctx context.Context, s *chain.Step, sc scope) (scope, error) {
	limit := time.Duration(s.Timeout()) * time.Millisecond
	for i, p := range s.PreTools {
		cp := s.C().PreTools[i]
		out, err := x.preTool(ctx, s, sc, p, cp, limit)
		if err != nil {
			if ctx.Err() != nil {
				return sc, ctx.Err()
			}
			switch p.OnError {
			case "inject":
				out = outcome{value: Value{Text: "error: " + err.Error()}}
			case "skip":
				out = outcome{}
			default:
				return sc, fmt.Errorf("pre_tool %s (%s): %w", p.InjectAs, p.Type, err)
			}
		}
		sc = sc.with(p.InjectAs, out.value)
	}
	return sc, nil
}

// preTool runs one pre_tool under the step's time limit.
func (x *execution) preTool(ctx context.Context, s *chain.Step, sc scope, p chain.PreTool, cp chain.CompiledPreTool, limit time.Duration) (outcome, error) {
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var out outcome
	var err error
	switch p.Type {
	case "shell", "cli":
		args := make([]chain.Arg, len(cp.Args))
		for j, t := range cp.Args {
			args[j] = chain.Arg{Template: t}
		}
		out, err = x.command(tctx, s, sc, cp.Command, args, cp.Run, nil, s.C().Cwd)
	case "http":
		out, err = x.http(tctx, s, sc, cp.URL, cp.Headers, nil, methodOf(p.Method))
	case "file":
		out, err = x.file(s, sc, cp.Path, s.C().Cwd)
	}
	if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s (the step's timeout_ms)", limit)
	}
	return out, err
}
