package pretool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// The step pipeline runs a step's pre_tools through this package.
func init() { run.RegisterPreTools(preTools) }

// preTools runs a step's pre_tools and adds their data to the step's
// scope under each inject_as (reference 004, OCC). They run in order, each
// seeing the ones before it; a run of neighbours marked parallel runs at
// once, each seeing what came before the run. on_error decides what a
// failure means (chain.PreTool.ErrorMode): fail the step, inject the error
// text, or skip the injection (the variable is then empty). The attempt it
// returns holds what they injected.
func preTools(ctx context.Context, a *run.Attempt) (*run.Attempt, error) {
	pts := a.Step().PreTools
	for i := 0; i < len(pts); {
		j := i + 1
		for pts[i].Parallel && j < len(pts) && pts[j].Parallel {
			j++
		}
		vals := make([]interp.Value, j-i)
		errs := make([]error, j-i)
		if j-i == 1 {
			vals[0], errs[0] = preTool(ctx, a, i)
		} else {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Go(func() { vals[k-i], errs[k-i] = preTool(ctx, a, k) })
			}
			wg.Wait()
		}
		for k := i; k < j; k++ {
			if err := errs[k-i]; err != nil {
				return a, err
			}
			a = a.With(pts[k].InjectAs, vals[k-i])
		}
		i = j
	}
	return a, nil
}

// preTool runs pre_tool i of step s: from the cache when it keeps
// results, else in attempts (retry), each under its time limit; a failure
// is then what its on_error says.
func preTool(ctx context.Context, a *run.Attempt, i int) (interp.Value, error) {
	s := a.Step()
	p := s.PreTools[i]
	key, store := preToolCache(a, i)
	var kept string
	if key != "" && store.Get(key, &kept) {
		return interp.TextValue(kept), nil
	}
	var out run.Outcome
	policy := retry.Policy{Attempts: p.Retry + 1, Delay: a.PreToolDelay(), Backoff: 2}
	err := retry.Do(ctx, policy, retry.Hooks{Retryable: func(err error) bool {
		return !run.IsPermanent(err)
	}}, func(int) error {
		var err error
		out, err = preToolOnce(ctx, a, i)
		return err
	})
	if err == nil {
		out.Value = fetchCapped(a, p, out.Value)
		if key != "" {
			_ = store.Put(key, out.Value.Text, time.Duration(p.CacheTTL)*time.Minute)
		}
		return out.Value, nil
	}
	if ctx.Err() != nil {
		return interp.Value{}, ctx.Err()
	}
	switch p.ErrorMode() {
	case "inject":
		if text := s.Reading().PreToolErrorText; text != nil {
			return interp.Value{Text: text(err.Error())}, nil
		}
		return interp.Value{Text: "error: " + err.Error()}, nil
	case "skip":
		return interp.Value{}, nil
	}
	return interp.Value{}, fmt.Errorf("pre_tool %s (%s): %w", p.InjectAs, p.Type, err)
}

// preToolCache is where pre_tool i keeps its result and under which key:
// the engine's cache (unless --no-cache), else one in memory for the
// engine's life. The key is the pre_tool as resolved, so the same fetch
// with the same values is shared by the steps that make it. No key when it
// keeps nothing, or when its values hold a secret.
func preToolCache(a *run.Attempt, i int) (string, cache.Cache) {
	s := a.Step()
	p, cp := s.PreTools[i], s.C().PreTools[i]
	if p.CacheTTL <= 0 {
		return "", nil
	}
	store := a.PreToolCache()
	if store == nil {
		return "", nil
	}
	parts := []any{"pre_tool", p.Base(), p.Method, p.JSONPath, p.Format, p.Timezone, p.VarName, p.Extract, p.Stderr, p.Encoding}
	for _, t := range []*chain.Template{cp.Command, cp.Run, cp.URL, cp.Path, cp.Body, cp.Query} {
		v, err := a.Render(t)
		if err != nil || a.HoldsSecret(v) {
			return "", nil
		}
		parts = append(parts, v)
	}
	for _, t := range cp.Args {
		v, _ := a.Render(t)
		parts = append(parts, v)
	}
	for k, t := range cp.Headers {
		v, _ := a.Render(t)
		if a.HoldsSecret(v) {
			return "", nil
		}
		parts = append(parts, k, v)
	}
	return cache.Key(parts), store
}

// preToolOnce is one attempt of pre_tool i, under its timeout_ms, else
// the step's.
func preToolOnce(ctx context.Context, a *run.Attempt, i int) (run.Outcome, error) {
	s := a.Step()
	p, cp := s.PreTools[i], s.C().PreTools[i]
	limit, what := time.Duration(s.Timeout())*time.Millisecond, "the step's timeout_ms"
	if p.TimeoutMS > 0 {
		limit, what = time.Duration(p.TimeoutMS)*time.Millisecond, "its timeout_ms"
	}
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var out run.Outcome
	var err error
	switch p.Base() {
	case "shell", "bash":
		args := make([]chain.Arg, len(cp.Args))
		for j, t := range cp.Args {
			args[j] = chain.Arg{Template: t}
		}
		out, err = proc.RunCommand(tctx, a, cp.Command, args, cp.Run, nil, s.C().Cwd)
		if err != nil && s.Reading().ExitKeptWithStderr && p.Stderr && tctx.Err() == nil {
			err = keepsExit(a, p, &out, err)
		}
		if p.Stderr && out.Stderr != "" {
			out.Value = interp.TextValue(out.Value.Text + "\n[stderr]\n" + out.Stderr)
		}
	case "http":
		out, err = proc.SendRequest(tctx, a, cp.URL, cp.Headers, cp.Body, web.MethodOf(p.Method))
		switch {
		case err != nil || p.JSONPath == "":
		case s.Reading().NonJSONKeptWhole && !json.Valid([]byte(out.Value.Text)):
			// OCC's http_fetch keeps a response that is not JSON as it is
			a.Warn(fmt.Sprintf("step %q: pre_tool %s: json_path %s: the response is not JSON: it is injected whole, as OCC does (chainrun's own format fails the pre_tool)", s.ID, p.InjectAs, p.JSONPath))
		default:
			out.Value, err = pickJSON(out.Value, p.JSONPath)
		}
	case "file":
		out, err = proc.ReadFile(a, cp.Path, s.C().Cwd, false)
		if err == nil && p.Encoding != "" {
			out.Value = interp.TextValue(decodeFile([]byte(out.Value.Text), p.Encoding))
		}
	case "write_file":
		out, err = writeFile(a, cp, p.Append, p.Encoding)
	case "current_datetime":
		out.Value = interp.Value{Text: datetime(a.Now(), p.Timezone, p.Format)}
		if write := s.Reading().Datetime; write != nil {
			if text, ok := write(a.Now(), p.Timezone, p.Format); ok {
				out.Value = interp.Value{Text: text}
			}
		}
	case "env_var":
		out.Value, err = envVar(s, p, a.Getenv)
	case "web_search":
		out, err = webSearch(tctx, a, cp.Query)
	case "ast_parse":
		out, err = astParse(a, cp.Path, p.Extract)
	default:
		err = run.Permanent(fmt.Errorf("pre_tool type %q cannot run", p.Type))
	}
	if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s (%s)", limit, what)
	}
	return out, err
}

// fetchCapped is what a read_file or http_fetch pre_tool injects of its
// value where the chain's reading caps it (chain.Reading.FetchCap: OCC's
// 50000): at most that many characters, then "\n[truncated]" (a warning
// says so). chainrun's own format injects the whole value (up to its 8
// MiB read limit).
func fetchCapped(a *run.Attempt, p chain.PreTool, v interp.Value) interp.Value {
	s := a.Step()
	limit := s.Reading().FetchCap
	if limit <= 0 || (p.Type != "read_file" && p.Type != "http_fetch") || len(v.Text) <= limit {
		return v
	}
	r := []rune(v.Text)
	if len(r) <= limit {
		return v
	}
	a.Warn(fmt.Sprintf("step %q: pre_tool %s (%s): %d characters cut to %d, as OCC injects them", s.ID, p.InjectAs, p.Type, len(r), limit))
	return interp.TextValue(string(r[:limit]) + "\n[truncated]")
}

// webSearch asks the run's search provider (run.Attempt.Search) for the
// query rendered and gives its results as text the model reads: each
// result's title, address and snippet, numbered. An answer that is not
// JSON is kept as it is.
func webSearch(ctx context.Context, a *run.Attempt, query *chain.Template) (run.Outcome, error) {
	q, err := a.Render(query)
	if err != nil {
		return run.Outcome{}, err
	}
	text, err := a.Search(ctx, q)
	if err != nil {
		return run.Outcome{}, err
	}
	return run.Outcome{Value: interp.Value{Text: text}}, nil
}
