package compose

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"golang.org/x/sync/errgroup"
)

// OCC's kinds: a loop runs its step_template per item on the for_each
// machinery; a merge combines variables, asking its model step for
// llm_summarize and pick_best; a debate asks its agents round by round,
// then its synthesis (body_webhook.go has OCC's webhook and browser).
// (A subchain is a chain step once loaded.)
func init() {
	run.Register(chain.KindLoop, run.Runner{
		Run: occLoop,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			items := strings.Join(Loop(s).ItemsStatic, ", ")
			if Loop(s).ItemsStatic == nil {
				items = Loop(s).ItemsVar
			}
			sub := record.PlannedStep{}
			v.Plan(Loop(s).StepTemplate, &sub)
			p.Action = fmt.Sprintf("loop over %s: %s", items, interp.FirstLine(sub.Action))
		},
	})
	run.Register(chain.KindMerge, run.Runner{
		Run: merge,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = fmt.Sprintf("merge (%s) %s", MergeStrategy(s), strings.Join(s.MergeInputs(), ", "))
			if m := s.ModelStep(); m != nil {
				p.Model = v.Model(m)
			}
		},
	})
	run.Register(chain.KindDebate, run.Runner{
		Run: debate,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = fmt.Sprintf("debate of %d agents, %d round(s), %s", len(Debaters(s)), DebateRounds(s), DebateStrategy(s))
			if len(Debaters(s)) > 0 {
				p.Model = v.Model(Debaters(s)[0])
			}
		},
	})
}

// occLoop runs a loop step's template once per item, as {item},
// {item_index} and {loop_total}.
func occLoop(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	var items []interp.Value
	if Loop(s).ItemsStatic != nil {
		for _, it := range Loop(s).ItemsStatic {
			items = append(items, interp.TextValue(it))
		}
	} else {
		v, err := a.List(s.C().ForEach, "items_var")
		if err != nil {
			return run.Outcome{}, err
		}
		items = occItems(v)
	}
	if err := run.CheckItems("items", len(items)); err != nil {
		return run.Outcome{}, err
	}
	return a.FanOut(ctx, items, run.Fan{
		Each: Loop(s).StepTemplate,
		Bind: func(a *run.Attempt, item interp.Value, i, n int) *run.Attempt {
			return a.With("item", item).With("item_index", interp.DataValue(float64(i))).With("loop_total", interp.DataValue(float64(n)))
		},
		Limit:     Loop(s).MaxParallel,
		Until:     s.C().LoopUntil,
		KeepGoing: Loop(s).LoopOnError == LoopOnContinue,
	})
}

// merge combines a merge step's inputs: concatenated, as a JSON array, or
// by its model step (llm_summarize, pick_best).
func merge(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	switch MergeStrategy(s) {
	case MergeConcatenate:
		return run.Outcome{Value: interp.TextValue(run.Concatenated(run.MergeValues(s, a.ValueOf)))}, nil
	case MergeJSONArray:
		var list []any
		for _, v := range run.MergeValues(s, a.ValueOf) {
			list = append(list, v.Public())
		}
		return run.Outcome{Value: interp.DataValue(list)}, nil
	}
	return a.Ask(ctx, s.ModelStep())
}

// debate asks every agent, round by round (from the second round on each
// sees the others' last answers), then the synthesis of their final
// answers, unless the strategy is last_round.
func debate(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	ds := Debaters(s)
	answers := make([]string, len(ds))
	var total run.Outcome
	var mu sync.Mutex
	role := func(i int) string {
		if r := strings.TrimSpace(Debate(s).Agents[i].Role); r != "" {
			return r
		}
		return "Agent " + strconv.Itoa(i+1)
	}
	for round := range DebateRounds(s) {
		prev := append([]string(nil), answers...)
		g, gctx := errgroup.WithContext(ctx)
		for i, d := range ds {
			others := ""
			if round > 0 {
				var views []string
				for j, a := range prev {
					if j != i {
						views = append(views, "### "+role(j)+"\n"+a)
					}
				}
				others = "\n\n---\nOther agents' perspectives from the previous round:\n" + strings.Join(views, "\n\n") + "\n\nConsidering these perspectives, refine your analysis:"
			}
			g.Go(func() error {
				out, err := a.With("debate_others", interp.Value{Text: others}).Ask(gctx, d)
				mu.Lock()
				defer mu.Unlock()
				total.Usage.Add(out.Usage)
				if out.Model != "" {
					total.Model = out.Model
				}
				if err != nil {
					return fmt.Errorf("round %d, %s: %w", round+1, role(i), err)
				}
				answers[i] = out.Value.Text
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return total, err
		}
	}
	var positions []string
	for i, a := range answers {
		positions = append(positions, "## "+role(i)+"\n"+a)
	}
	if s.ModelStep() == nil {
		total.Value = interp.TextValue(strings.Join(positions, "\n\n"))
		return total, nil
	}
	out, err := a.With("debate_positions", interp.Value{Text: strings.Join(positions, "\n\n")}).Ask(ctx, s.ModelStep())
	out.Usage.Add(total.Usage)
	return out, err
}
