package run

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// Plan resolves every step of the chain without running anything. It
// needs no model and no key, and fails only on bad inputs.
func (l *Local) Plan(req Request) ([]record.PlannedStep, error) {
	c := req.Chain
	if c.Empty() {
		return nil, &response.EmptyChainError{Chain: c.Name, File: c.File}
	}
	inputs, typed, err := given.ResolveTyped(c, req.Inputs)
	if err != nil {
		return nil, err
	}
	x := &Execution{Engine: l, Chain: c, Vars: newStore(given.Masked(c, inputs))}
	x.Vars.typed = typed
	for _, in := range c.Inputs {
		if _, given := typed[in.Name]; given && in.Secret {
			x.Vars.typed[in.Name] = "***"
		}
	}
	place := map[*chain.Step]record.PlannedStep{}
	if w := c.Workflow; w != nil {
		for _, st := range w.States {
			if st.Task != nil {
				place[st.Task] = record.PlannedStep{State: st.Name}
			}
			if st.OnEnter != nil && st.OnEnter.Executor != nil {
				for i, fb := range st.OnEnter.Executor.Fallbacks {
					place[fb] = record.PlannedStep{Fallback: i + 1}
				}
			}
			for _, t := range st.Transitions {
				if t.Executor != nil {
					place[t.Executor] = record.PlannedStep{State: st.Name, Transition: t.Name, Target: t.Target}
					for i, fb := range t.Executor.Fallbacks {
						place[fb] = record.PlannedStep{State: st.Name, Transition: t.Name, Target: t.Target, Fallback: i + 1}
					}
				}
			}
		}
	}
	v := planView{x: x, sc: Scope{Vars: x.Vars}}
	wave := map[string]int{}
	for i, w := range c.Graph().Waves() {
		for _, id := range w {
			wave[id] = i + 1
		}
	}
	var plan []record.PlannedStep
	for _, s := range slices.Concat(c.Steps, c.HandlerSteps()) {
		p := record.PlannedStep{ID: s.ID, Kind: string(s.Kind), Wave: wave[s.ID], DependsOn: s.DependsOn, Condition: s.Condition, Cwd: v.keep(s.C().Cwd), Handler: s.Lifecycle()}
		if at, ok := place[s]; ok && at.State == "" {
			p.Wave, p.Fallback = 0, at.Fallback
		} else if ok {
			p.Wave, p.State, p.Transition, p.Target, p.Fallback = 0, at.State, at.Transition, at.Target, at.Fallback
		}
		if k, ok := Kinds[s.Kind]; ok && k.Plan != nil {
			k.Plan(PlanView{v}, s, &p)
		}
		if s.Handler != nil && handlerKind.Plan != nil {
			handlerKind.Plan(PlanView{v}, s, &p)
		}
		p.Stops = l.pendingAt(c, s)
		p.PreTools = v.preTools(s)
		if s.ForEach != "" {
			p.Action = "for each " + s.ForEach + ": " + p.Action
		}
		plan = append(plan, p)
	}
	return plan, nil
}

// planView renders a step's fields for a dry run: inputs substituted,
// upstream outputs left as {references}.
type planView struct {
	x  *Execution
	sc Scope
}

// preTools shows each of the step's pre_tools as it would run.
func (v planView) preTools(s *chain.Step) []string {
	var out []string
	for i, p := range s.PreTools {
		cp := s.C().PreTools[i]
		what := ""
		switch p.Base() {
		case "http":
			what = web.MethodOf(p.Method) + " " + v.url(cp.URL)
		case "file", "ast_parse":
			what = v.keep(cp.Path)
		case "write_file":
			what = "write " + v.keep(cp.Path)
		case "web_search":
			what = v.keep(cp.Query)
		case "env_var":
			what = "$" + p.VarName
		case "current_datetime":
			what = "now"
		default:
			if cp.Run != nil {
				what = v.keep(cp.Run)
				break
			}
			words := []string{v.keep(cp.Command)}
			for _, a := range cp.Args {
				words = append(words, v.keep(a))
			}
			what = strings.Join(words, " ")
		}
		out = append(out, p.InjectAs+" ← "+p.Type+": "+what)
	}
	return out
}

// keep renders t leniently: what has no value yet stays a reference.
// url renders a request's URL as the request's errors show it (redact.URL:
// no user and password, query or fragment): a dry run's output lands in
// CI logs.
func (v planView) url(t *chain.Template) string {
	if t == nil {
		return ""
	}
	return redact.URL(v.keep(t))
}

func (v planView) keep(t *chain.Template) string {
	if t == nil {
		return ""
	}
	out, _ := t.Render(v.sc.Resolve, true)
	return out
}
