package run

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// fan is how a loop runs its items: the step run per item and the
// names it reads its item by, the most at once (0: as many as the run's
// pool allows), when to stop early and whether a failed item fails the
// loop.
type fan struct {
	each *chain.Step
	// bind makes the scope of item i of n.
	bind      func(sc Scope, item interp.Value, i, n int) Scope
	limit     int
	until     *chain.Expression
	keepGoing bool
}

// loop runs the step once per item of its for_each list, in parallel; all
// loops of a run share one pool of --max-parallel slots for their items.
// The output is the list of the items' outputs.
func (x *Execution) loop(ctx context.Context, s *chain.Step, sc Scope) (outcome, int, error) {
	items, err := x.items(s, sc)
	if err != nil {
		return outcome{}, 0, err
	}
	return x.fanOut(ctx, items, sc, fan{each: s, bind: func(sc Scope, item interp.Value, i, _ int) Scope {
		sc = sc.with("item", item)
		sc.keyItem = itemKey(i)
		return sc
	}})
}

// fanOut runs f.each once per item. A failed item cancels the others
// (unless f.keepGoing), except a budget refusal: the items' calls in
// flight were admitted within the budget, so they answer; no item starts
// after a failure, nor after f.until holds over the outputs of the items
// before it. The output is the list of the items' outputs, in item order.
func (x *Execution) fanOut(ctx context.Context, items []interp.Value, sc Scope, f fan) (outcome, int, error) {
	results := make([]any, len(items))
	attempts := make([]int, len(items))
	usages := make([]outcome, len(items))
	done := make([]bool, len(items))
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := dag.NewWorkers(cap(x.itemSlots))
	var firstErr error
	var firstOnce sync.Once
	var failed, stopped atomic.Bool
	var mu sync.Mutex
	stopAt, judged := len(items), 0
	var untilErr error
	own := make(chan struct{}, max(f.limit, 1))
items:
	for i, item := range items {
		if f.limit > 0 {
			select {
			case own <- struct{}{}:
			case <-gctx.Done():
				break items
			}
		}
		// every loop of the run shares one pool of --max-parallel slots
		acquired := false
		select {
		case x.itemSlots <- struct{}{}:
			acquired = !failed.Load() && !stopped.Load()
			if !acquired {
				<-x.itemSlots
			}
		case <-gctx.Done():
		}
		if !acquired {
			break
		}
		runItem := func() error {
			defer func() {
				<-x.itemSlots
				if f.limit > 0 {
					<-own
				}
			}()
			out, n, err := x.item(context.WithValue(gctx, perItemKey{}, true), f.each, f.bind(sc, item, i, len(items)))
			attempts[i] = n
			usages[i] = outcome{usage: out.usage, model: out.model}
			if err != nil && f.keepGoing && gctx.Err() == nil {
				out.Value, err = interp.TextValue("[ERROR: "+err.Error()+"]"), nil
			}
			if err != nil {
				if stopped.Load() && gctx.Err() != nil {
					return nil
				}
				failed.Store(true)
				if !budgetRefused(err) {
					cancel()
				}
				return fmt.Errorf("item %d (%s): %w", i, record.Clip(item.Text, 40), err)
			}
			results[i] = out.Value.Public()
			if f.until == nil {
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			done[i] = true
			// loop_until is judged over the outputs in item order: the
			// first prefix of finished items that makes it hold ends it
			for judged < stopAt && done[judged] {
				holds, err := f.until.HoldsContext(ctx, sc.with("loop_result", interp.DataValue(results[:judged+1])).ExprEnv(f.until.Names))
				judged++
				if err != nil {
					untilErr = fmt.Errorf("loop_until: %v", err)
				}
				if holds || err != nil {
					stopAt = judged
					stopped.Store(true)
					cancel()
				}
			}
			return nil
		}
		workers.Do(func() {
			if err := runItem(); err != nil {
				firstOnce.Do(func() { firstErr = err })
			}
		})
	}
	workers.Wait()
	err := firstErr
	if err == nil {
		err = untilErr
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	most := 0
	for _, n := range attempts {
		most = max(most, n)
	}
	var total outcome
	for _, u := range usages {
		total.usage.Add(u.usage)
		if u.model != "" {
			total.model = u.model
		}
	}
	if err != nil {
		return total, most, err
	}
	total.Value = interp.DataValue(results[:min(stopAt, len(results))])
	return total, most, nil
}

// item runs one item of a loop: its pre_tools (which see {item}), then
// the step's attempts.
func (x *Execution) item(ctx context.Context, s *chain.Step, sc Scope) (outcome, int, error) {
	sc, err := x.preTools(ctx, s, sc)
	if err != nil {
		return outcome{}, 0, err
	}
	return x.attempts(ctx, s, sc)
}

// items is the for_each list: a JSON array, or else one item per
// non-empty line of text.
func (x *Execution) items(s *chain.Step, sc Scope) ([]interp.Value, error) {
	v, err := x.listOf(s.C().ForEach, sc, "for_each")
	if err != nil {
		return nil, err
	}
	items := SplitItems(v, "\n")
	return items, CheckItems("for_each "+s.C().ForEach.Refs()[0].Raw, len(items))
}

// listOf is the value of the one variable t names.
func (x *Execution) listOf(t *chain.Template, sc Scope, field string) (interp.Value, error) {
	r := t.Refs()[0]
	v, ok := sc.valueOf(r)
	if !ok {
		return interp.Value{}, &permanentError{fmt.Errorf("%s: %s has no value", field, r.Raw)}
	}
	return v, nil
}

// valueOf is the value a reference names: an input, a variable or a
// field of one.
func (sc Scope) valueOf(r chain.Ref) (interp.Value, bool) {
	if r.Name == "input" {
		if len(r.Path) != 1 {
			return interp.Value{}, false
		}
		v, ok := sc.Vars.inputs[r.Path[0]]
		return interp.TextValue(v), ok
	}
	v, ok := sc.lookup(r.Name)
	if !ok || len(r.Path) == 0 {
		return v, ok
	}
	d, ok := interp.Walk(v.Data, r.Path)
	return interp.DataValue(d), ok
}

// SplitItems is a list's items: a JSON array's elements, else the
// non-empty parts of its text between seps (a for_each splits at "\n").
// A family that reads lists otherwise (OCC's loop) decides sep and what
// comes before it.
func SplitItems(v interp.Value, sep string) []interp.Value {
	if list, ok := v.Data.([]any); ok {
		out := make([]interp.Value, len(list))
		for i, e := range list {
			out[i] = interp.DataValue(e)
		}
		return out
	}
	var out []interp.Value
	for _, part := range strings.Split(v.Text, sep) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, interp.TextValue(part))
		}
	}
	return out
}
