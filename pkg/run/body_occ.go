package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/chainrun/chainrun/pkg/chain"
)

// OCC's kinds: a loop runs its step_template per item on the for_each
// machinery; a merge combines variables, asking its model step for
// llm_summarize and pick_best; a debate asks its agents round by round,
// then its synthesis (body_webhook.go has OCC's webhook and browser).
// (A subchain is a chain step once loaded.)
func init() {
	register(chain.KindLoop, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			out, _, err := x.occLoop(ctx, s, sc)
			return out, err
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			items := strings.Join(s.ItemsStatic, ", ")
			if s.ItemsStatic == nil {
				items = s.ItemsVar
			}
			sub := PlannedStep{}
			if k, ok := kinds[s.StepTemplate.Kind]; ok && k.plan != nil {
				k.plan(v, s.StepTemplate, &sub)
			}
			p.Action = fmt.Sprintf("loop over %s: %s", items, firstLine(sub.Action))
		},
	})
	register(chain.KindMerge, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.merge(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			p.Action = fmt.Sprintf("merge (%s) %s", s.MergeStrategy(), strings.Join(s.MergeInputs(), ", "))
			if m := s.ModelStep(); m != nil {
				p.Model = v.x.l.modelOf(m)
			}
		},
	})
	register(chain.KindDebate, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.debate(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			p.Action = fmt.Sprintf("debate of %d agents, %d round(s), %s", len(s.Debaters()), s.DebateRounds(), s.DebateStrategy())
			if len(s.Debaters()) > 0 {
				p.Model = v.x.l.modelOf(s.Debaters()[0])
			}
		},
	})
}

// occLoop runs a loop step's template once per item, as {item},
// {item_index} and {loop_total}.
func (x *execution) occLoop(ctx context.Context, s *chain.Step, sc scope) (outcome, int, error) {
	var items []Value
	if s.ItemsStatic != nil {
		for _, it := range s.ItemsStatic {
			items = append(items, TextValue(it))
		}
	} else {
		v, err := x.listOf(s.C().ForEach, sc, "items_var")
		if err != nil {
			return outcome{}, 0, err
		}
		items = splitItems(v, true)
	}
	if err := checkItems("items", len(items)); err != nil {
		return outcome{}, 0, err
	}
	return x.fanOut(ctx, items, sc, fan{
		each: s.StepTemplate,
		bind: func(sc scope, item Value, i, n int) scope {
			return sc.with("item", item).with("item_index", DataValue(float64(i))).with("loop_total", DataValue(float64(n)))
		},
		limit:     s.MaxParallel,
		until:     s.C().LoopUntil,
		keepGoing: s.LoopOnError == chain.LoopOnContinue,
	})
}

// mergeValues are the values a merge's inputs name, in order ("" for
// one with no value).
func mergeValues(s *chain.Step, valueOf func(chain.Ref) (Value, bool)) []Value {
	var out []Value
	for _, name := range s.MergeInputs() {
		r, _ := chain.ParseRef(name)
		v, _ := valueOf(r)
		out = append(out, v)
	}
	return out
}

// concatenated is OCC's concatenation: the non-empty texts, separated by
// a rule.
func concatenated(vs []Value) string {
	var parts []string
	for _, v := range vs {
		if strings.TrimSpace(v.Text) != "" {
			parts = append(parts, v.Text)
		}
	}
	return strings.Join(parts, "\n\n---\n\n")
}

// merge combines a merge step's inputs: concatenated, as a JSON array, or
// by its model step (llm_summarize, pick_best).
func (x *execution) merge(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	switch s.MergeStrategy() {
	case chain.MergeConcatenate:
		return outcome{value: TextValue(concatenated(mergeValues(s, sc.valueOf)))}, nil
	case chain.MergeJSONArray:
		var list []any
		for _, v := range mergeValues(s, sc.valueOf) {
			list = append(list, v.Public())
		}
		return outcome{value: DataValue(list)}, nil
	}
	return x.ask(ctx, s.ModelStep(), sc)
}

// ask asks a model step (of a merge or a debate) once, its model use
// being the asking step's.
func (x *execution) ask(ctx context.Context, m *chain.Step, sc scope) (outcome, error) {
	t := &tries{}
	out, err := kinds[chain.KindAgent].run(x, ctx, m, sc, t)
	out.usage = t.usage
	if out.model == "" {
		out.model = t.model
	}
	return out, err
}

// debate asks every agent, round by round (from the second round on each
// sees the others' last answers), then the synthesis of their final
// answers, unless the strategy is last_round.
func (x *execution) debate(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	ds := s.Debaters()
	answers := make([]string, len(ds))
	var total outcome
	var mu sync.Mutex
	role := func(i int) string {
		if r := strings.TrimSpace(s.Agents[i].Role); r != "" {
			return r
		}
		return "Agent " + strconv.Itoa(i+1)
	}
	for round := range s.DebateRounds() {
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
				out, err := x.ask(gctx, d, sc.with("debate_others", Value{Text: others}))
				mu.Lock()
				defer mu.Unlock()
				total.usage.add(out.usage)
				if out.model != "" {
					total.model = out.model
				}
				if err != nil {
					return fmt.Errorf("round %d, %s: %w", round+1, role(i), err)
				}
				answers[i] = out.value.Text
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
		total.value = TextValue(strings.Join(positions, "\n\n"))
		return total, nil
	}
	out, err := x.ask(ctx, s.ModelStep(), sc.with("debate_positions", Value{Text: strings.Join(positions, "\n\n")}))
	out.usage.add(total.usage)
	return out, err
}
