package run

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// PlannedStep is a step as --dry-run shows it: what would run, with
// inputs substituted and upstream outputs left as {references}.
type PlannedStep struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Wave      int      `json:"wave"`
	DependsOn []string `json:"depends_on,omitempty"`
	Condition string   `json:"condition,omitempty"`
	// Action is the resolved command, request, expression or prompt.
	Action string `json:"action"`
	// Model, FallbackModels and System are an agent step's call.
	Model          string   `json:"model,omitempty"`
	FallbackModels []string `json:"fallback_models,omitempty"`
	System         string   `json:"system,omitempty"`
	Cwd            string   `json:"cwd,omitempty"`
	// State and Transition place a workflow's executor or task.
	State      string `json:"state,omitempty"`
	Transition string `json:"transition,omitempty"`
	Target     string `json:"target,omitempty"`
}

// Plan resolves every step of the chain without running anything. It
// needs no model and no key, and fails only on bad inputs.
func (l *Local) Plan(req Request) ([]PlannedStep, error) {
	c := req.Chain
	inputs, typed, err := resolveInputs(c, req.Inputs)
	if err != nil {
		return nil, err
	}
	x := &execution{l: l, c: c, st: newStore(Masked(c, inputs))}
	x.st.typed = typed
	for _, in := range c.Inputs {
		if _, given := typed[in.Name]; given && in.Secret {
			x.st.typed[in.Name] = "***"
		}
	}
	place := map[*chain.Step]PlannedStep{}
	if w := c.Workflow; w != nil {
		for _, st := range w.States {
			if st.Task != nil {
				place[st.Task] = PlannedStep{State: st.Name}
			}
			for _, t := range st.Transitions {
				if t.Executor != nil {
					place[t.Executor] = PlannedStep{State: st.Name, Transition: t.Name, Target: t.Target}
				}
			}
		}
	}
	sc := scope{st: x.st}
	keep := func(t *chain.Template) string {
		if t == nil {
			return ""
		}
		out, _ := t.Render(sc.resolve, true)
		return out
	}
	wave := map[string]int{}
	for i, w := range c.Graph().Waves() {
		for _, id := range w {
			wave[id] = i + 1
		}
	}
	var plan []PlannedStep
	for _, s := range c.Steps {
		p := PlannedStep{ID: s.ID, Kind: string(s.Kind), Wave: wave[s.ID], DependsOn: s.DependsOn, Condition: s.Condition, Cwd: keep(s.C().Cwd)}
		if at, ok := place[s]; ok {
			p.Wave, p.State, p.Transition, p.Target = 0, at.State, at.Transition, at.Target
		}
		cs := s.C()
		switch s.Kind {
		case chain.KindCLI:
			if cs.Run != nil {
				p.Action = cs.Run.RenderShellForDisplay(sc.resolve)
			} else {
				argv := []string{keep(cs.Command)}
				for _, a := range cs.Args {
					if a.JSONPath != nil {
						v, err := x.arg(a, sc)
						if err != nil {
							v = a.Raw
						}
						argv = append(argv, chain.ShellQuote(v))
						continue
					}
					argv = append(argv, chain.ShellQuote(keep(a.Template)))
				}
				p.Action = strings.Join(argv, " ")
			}
		case chain.KindHTTP:
			method := s.Method
			if method == "" {
				method = "GET"
			}
			p.Action = method + " " + keep(cs.URL)
			if b := keep(cs.Body); b != "" {
				p.Action += "\n" + b
			}
		case chain.KindTransform:
			p.Action = s.Expr
		case chain.KindFile:
			p.Action = "read " + keep(cs.Path)
		case chain.KindAgent:
			p.Model = l.modelOf(s)
			if p.Model == "" {
				p.Model = "(no model: set model:, --model, CHAINRUN_MODEL or default_model)"
			}
			p.FallbackModels = s.FallbackModels
			p.Action = keep(cs.Prompt)
			if sys := keep(cs.System); sys != "" {
				p.System = sys
			}
		case chain.KindHuman:
			p.Action = keep(cs.Prompt)
		case chain.KindChain:
			var with []string
			for k, t := range cs.With {
				with = append(with, k+"="+keep(t))
			}
			sort.Strings(with)
			p.Action = fmt.Sprintf("chain %s %s", s.Chain, strings.Join(with, " "))
		}
		if s.ForEach != "" {
			p.Action = "for each " + s.ForEach + ": " + p.Action
		}
		plan = append(plan, p)
	}
	return plan, nil
}
