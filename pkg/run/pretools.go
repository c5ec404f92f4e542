package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/retry"
)

// preTools runs a step's pre_tools and adds their data to the step's
// scope under each inject_as (reference 004, OCC). They run in order, each
// seeing the ones before it; a run of neighbours marked parallel runs at
// once, each seeing what came before the run. on_error decides what a
// failure means (chain.PreTool.ErrorMode): fail the step, inject the error
// text, or skip the injection (the variable is then empty).
func (x *execution) preTools(ctx context.Context, s *chain.Step, sc scope) (scope, error) {
	pts := s.PreTools
	for i := 0; i < len(pts); {
		j := i + 1
		for pts[i].Parallel && j < len(pts) && pts[j].Parallel {
			j++
		}
		vals := make([]Value, j-i)
		errs := make([]error, j-i)
		if j-i == 1 {
			vals[0], errs[0] = x.preTool(ctx, s, sc, i)
		} else {
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Go(func() { vals[k-i], errs[k-i] = x.preTool(ctx, s, sc, k) })
			}
			wg.Wait()
		}
		for k := i; k < j; k++ {
			if err := errs[k-i]; err != nil {
				return sc, err
			}
			sc = sc.with(pts[k].InjectAs, vals[k-i])
		}
		i = j
	}
	return sc, nil
}

// preTool runs pre_tool i of step s: from the cache when it keeps
// results, else in attempts (retry), each under its time limit; a failure
// is then what its on_error says.
func (x *execution) preTool(ctx context.Context, s *chain.Step, sc scope, i int) (Value, error) {
	p := s.PreTools[i]
	key, store := x.preToolCache(s, sc, i)
	var kept string
	if key != "" && store.Get(key, &kept) {
		return TextValue(kept), nil
	}
	var out outcome
	policy := retry.Policy{Attempts: p.Retry + 1, Delay: x.l.preToolDelay, Backoff: 2}
	err := retry.Do(ctx, policy, retry.Hooks{Retryable: func(err error) bool {
		var pe *permanentError
		return !errors.As(err, &pe)
	}}, func(int) error {
		var err error
		out, err = x.preToolOnce(ctx, s, sc, i)
		return err
	})
	if err == nil {
		out.value = x.occCapped(s, p, out.value)
		if key != "" {
			_ = store.Put(key, out.value.Text, time.Duration(p.CacheTTL)*time.Minute)
		}
		return out.value, nil
	}
	if ctx.Err() != nil {
		return Value{}, ctx.Err()
	}
	switch p.ErrorMode() {
	case "inject":
		if s.OCC() {
			return Value{Text: "[PRE-TOOL ERROR: " + err.Error() + "]"}, nil // OCC's own text
		}
		return Value{Text: "error: " + err.Error()}, nil
	case "skip":
		return Value{}, nil
	}
	return Value{}, fmt.Errorf("pre_tool %s (%s): %w", p.InjectAs, p.Type, err)
}

// preToolCache is where pre_tool i keeps its result and under which key:
// the engine's cache (unless --no-cache), else one in memory for the
// engine's life. The key is the pre_tool as resolved, so the same fetch
// with the same values is shared by the steps that make it. No key when it
// keeps nothing, or when its values hold a secret.
func (x *execution) preToolCache(s *chain.Step, sc scope, i int) (string, cache.Cache) {
	p, cp := s.PreTools[i], s.C().PreTools[i]
	if p.CacheTTL <= 0 {
		return "", nil
	}
	var store cache.Cache = x.l.preCache
	if x.l.cache != nil {
		if !x.l.cacheReads {
			return "", nil
		}
		store = x.l.cache
	}
	parts := []any{"pre_tool", p.Base(), p.Method, p.JSONPath, p.Format, p.Timezone, p.VarName, p.Extract, p.Stderr, p.Encoding}
	for _, t := range []*chain.Template{cp.Command, cp.Run, cp.URL, cp.Path, cp.Body, cp.Query} {
		v, err := x.render(t, sc)
		if err != nil || x.secrets.holds(v) {
			return "", nil
		}
		parts = append(parts, v)
	}
	for _, t := range cp.Args {
		v, _ := x.render(t, sc)
		parts = append(parts, v)
	}
	for k, t := range cp.Headers {
		v, _ := x.render(t, sc)
		if x.secrets.holds(v) {
			return "", nil
		}
		parts = append(parts, k, v)
	}
	return cache.Key(parts), store
}

// preToolOnce is one attempt of pre_tool i, under its timeout_ms, else
// the step's.
func (x *execution) preToolOnce(ctx context.Context, s *chain.Step, sc scope, i int) (outcome, error) {
	p, cp := s.PreTools[i], s.C().PreTools[i]
	limit, what := time.Duration(s.Timeout())*time.Millisecond, "the step's timeout_ms"
	if p.TimeoutMS > 0 {
		limit, what = time.Duration(p.TimeoutMS)*time.Millisecond, "its timeout_ms"
	}
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var out outcome
	var err error
	switch p.Base() {
	case "shell", "bash":
		args := make([]chain.Arg, len(cp.Args))
		for j, t := range cp.Args {
			args[j] = chain.Arg{Template: t}
		}
		o, e := RunCommand(tctx, x.tryOf(s, sc, nil), cp.Command, args, cp.Run, nil, s.C().Cwd)
		out, err = o.inner(), e
		if err != nil && s.OCC() && p.Stderr && tctx.Err() == nil {
			err = x.occKeepsExit(s, p, &out, err)
		}
		if p.Stderr && out.stderr != "" {
			out.value = TextValue(out.value.Text + "\n[stderr]\n" + out.stderr)
		}
	case "http":
		o, e := SendRequest(tctx, x.tryOf(s, sc, nil), cp.URL, cp.Headers, cp.Body, MethodOf(p.Method))
		out, err = o.inner(), e
		switch {
		case err != nil || p.JSONPath == "":
		case s.OCC() && !json.Valid([]byte(out.value.Text)):
			// OCC's http_fetch keeps a response that is not JSON as it is
			x.warn(fmt.Sprintf("step %q: pre_tool %s: json_path %s: the response is not JSON: it is injected whole, as OCC does (chainrun's own format fails the pre_tool)", s.ID, p.InjectAs, p.JSONPath))
		default:
			out.value, err = pickJSON(out.value, p.JSONPath)
		}
	case "file":
		o, e := ReadFile(x.tryOf(s, sc, nil), cp.Path, s.C().Cwd, false)
		out, err = o.inner(), e
		if err == nil && p.Encoding != "" {
			out.value = TextValue(decodeFile([]byte(out.value.Text), p.Encoding))
		}
	case "write_file":
		out, err = x.writeFile(s, sc, cp, p.Append, p.Encoding)
	case "current_datetime":
		if s.OCC() {
			out.value = Value{Text: occDatetime(x.l.now(), p.Timezone, p.Format)}
		} else {
			out.value = Value{Text: datetime(x.l.now(), p.Timezone, p.Format)}
		}
	case "env_var":
		out.value, err = envVar(s, p, x.getenv)
	case "web_search":
		out, err = x.webSearch(tctx, sc, cp.Query)
	case "ast_parse":
		out, err = x.astParse(s, sc, cp.Path, p.Extract)
	default:
		err = &permanentError{fmt.Errorf("pre_tool type %q cannot run", p.Type)}
	}
	if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("timed out after %s (%s)", limit, what)
	}
	return out, err
}

// occPreToolCap is the most characters OCC's read_file and http_fetch
// inject: the rest is cut, with "[truncated]" on a line of its own.
const occPreToolCap = 50000

// occCapped is what OCC injects of a read_file or http_fetch value in a
// file read as OCC's: at most occPreToolCap characters, then
// "\n[truncated]" (a warning says so). chainrun's own format injects the
// whole value (up to its 8 MiB read limit).
func (x *execution) occCapped(s *chain.Step, p chain.PreTool, v Value) Value {
	if !s.OCC() || (p.Type != "read_file" && p.Type != "http_fetch") || len(v.Text) <= occPreToolCap {
		return v
	}
	r := []rune(v.Text)
	if len(r) <= occPreToolCap {
		return v
	}
	x.warn(fmt.Sprintf("step %q: pre_tool %s (%s): %d characters cut to %d, as OCC injects them", s.ID, p.InjectAs, p.Type, len(r), occPreToolCap))
	return TextValue(string(r[:occPreToolCap]) + "\n[truncated]")
}
