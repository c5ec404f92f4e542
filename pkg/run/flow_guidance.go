package run

import (
	"regexp"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/theory/jsonpath"
)

// SkillRef is a guidance fragment in scope at a decision point, as
// mcp-flowgate surfaces it: its subject, verb and content hash, so a
// reader can tell a changed body from one it has seen.
type SkillRef struct {
	Verb    string `json:"verb,omitempty"`
	Subject string `json:"subject"`
	Title   string `json:"title,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// placeholder is a {{ $.path }} in a goal or guidance.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*(\$[^{}]*?)\s*\}\}`) })

// render fills the {{ $.context.x }} placeholders of a goal or guidance
// with the run's values, once (a value holding {{ }} is not expanded
// again); one that selects nothing shows as (x: unset), never an error.
func (f *flow) render(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return renderDoc(text, f.pathDoc(nil, nil, f.args))
}

// renderDoc fills the {{ $.path }} placeholders of text from doc.
func renderDoc(text string, doc map[string]any) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return placeholder().ReplaceAllStringFunc(text, func(m string) string {
		expr := placeholder().FindStringSubmatch(m)[1]
		p, err := jsonpath.Parse(expr)
		if err != nil {
			return m
		}
		nodes := p.Select(doc)
		if len(nodes) == 0 || nodes[0] == nil {
			return "(" + lastSegment(expr) + ": unset)"
		}
		if len(nodes) == 1 {
			return textOf(nodes[0])
		}
		return textOf([]any(nodes))
	})
}

func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// guidance is the state's goal and guidance, rendered, with the
// fragments in scope there: the workflow's, the state's and those of the
// transitions offered.
func (f *flow) guidance(s *chain.State, offered []*chain.Transition) *Guidance {
	if s == nil {
		return nil
	}
	g := &Guidance{Goal: f.render(s.Goal), Instructions: f.render(s.Guidance)}
	for _, subject := range skillSubjects(f.w, s, offered) {
		ref := SkillRef{Subject: subject}
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
