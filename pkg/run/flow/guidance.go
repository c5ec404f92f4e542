package flow

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/theory/jsonpath"
)

// render fills a goal or guidance: its {input.x}, {context.x} and
// {variable} references, as in a prompt, and its {{ $.path }}
// placeholders, each once (a value holding braces is not expanded again).
// What it shows is what a result may show: a secret input's value, or a
// value that holds one, as ***, and so a slot whose secret a resume never
// had; one that selects nothing shows as (x: unset), never an error.
func (f *flow) render(t *chain.Template) string {
	if t == nil {
		return ""
	}
	var doc map[string]any // built once, for the first placeholder
	fill := func(lit string) string {
		if !strings.Contains(lit, "{{") {
			return lit
		}
		if doc == nil {
			doc = f.pathDoc(nil, nil, f.args)
			if f.Secrets != nil {
				doc, _ = f.MaskValue(doc).(map[string]any)
			}
		}
		return renderDoc(lit, doc, f.hiddenSlot)
	}
	sc := run.Scope{Vars: f.Vars}
	out, _ := t.RenderWith(fill,
		func(r chain.Ref) (string, bool, error) {
			v, ok, err := sc.Resolve(r)
			switch {
			case err != nil:
				return "", false, err
			case ok:
				return f.Mask(v), true, nil
			case r.Fallback != nil:
				return "", false, nil
			case f.hiddenSlot(r.Name, r.Path):
				return "***", true, nil
			}
			return chain.Unset(r.Dotted()), true, nil
		}, false)
	return out
}

// hiddenSlot reports whether a variable, or a slot of the context, held
// a secret input's value in a transition this call replayed: it was
// saved as *** and is unset now.
func (f *flow) hiddenSlot(name string, path []string) bool {
	if name == "context" && len(path) > 0 {
		return f.hidden["context."+path[0]]
	}
	return f.hidden[name]
}

// renderDoc fills the {{ $.path }} placeholders of text from doc; hidden,
// when not nil, says which selections that find nothing held a secret.
func renderDoc(text string, doc map[string]any, hidden func(name string, path []string) bool) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return chain.Placeholders().ReplaceAllStringFunc(text, func(m string) string {
		expr := chain.Placeholders().FindStringSubmatch(m)[1]
		p, err := jsonpath.Parse(expr)
		if err != nil {
			return m
		}
		nodes := p.Select(doc)
		if len(nodes) == 0 || nodes[0] == nil {
			if name, path := chain.JSONPathHead(expr); hidden != nil && name != "" && hidden(name, path) {
				return "***"
			}
			return chain.Unset(expr)
		}
		if len(nodes) == 1 {
			return interp.TextOf(nodes[0])
		}
		return interp.TextOf([]any(nodes))
	})
}

// guidance is the state's goal and guidance, rendered, with the
// fragments in scope there: the workflow's, the state's and those of the
// transitions offered.
func (f *flow) guidance(s *chain.State, offered []*chain.Transition) *response.Guidance {
	if s == nil {
		return nil
	}
	g := &response.Guidance{Goal: f.render(s.GoalTemplate()), Instructions: f.render(s.GuidanceTemplate())}
	for _, subject := range skillSubjects(f.w, s, offered) {
		ref := response.SkillRef{Subject: subject}
		if fr := f.w.Library[subject]; fr != nil {
			ref.Verb, ref.Title, ref.Hash = fr.Verb, fr.Title, fr.Digest
		}
		g.Refs = append(g.Refs, ref)
	}
	g.Acknowledge = f.described(s)
	if g.Goal == "" && g.Instructions == "" && len(g.Refs) == 0 && len(g.Acknowledge) == 0 {
		return nil
	}
	return g
}

// skillSubjects lists the subjects in scope at a state, once each.
func skillSubjects(w *chain.Workflow, s *chain.State, offered []*chain.Transition) []string {
	lists := [][]string{w.Skills.Subjects, s.Skills.Subjects}
	for _, t := range offered {
		lists = append(lists, t.Skills.Subjects)
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, x := range l {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}
