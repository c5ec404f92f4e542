package wfcheck

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/spell"
	"github.com/theory/jsonpath"
)

// stateTexts parses a state's goal and guidance as templates, so that
// {input.x}, {context.x} and {variable} mean there what they mean in a
// prompt, and checks every reference and {{ $.path }} placeholder they
// hold. A goal a task chain's description became (not written as goal:)
// stays text.
func (v *checker) stateTexts(s *chain.State) {
	s.SetTexts(v.stateText(s, "goal", s.Goal), v.stateText(s, "guidance", s.Guidance))
}

func (v *checker) stateText(s *chain.State, field, text string) *chain.Template {
	if _, written := s.FieldPos[field]; !written || text == "" {
		return nil
	}
	t := chain.ParseTemplate(text)
	for _, r := range t.Refs() {
		if why := v.guidanceRead(r.Name, r.Path); why != "" {
			v.stateTextError(s, field, r.Raw, why)
		}
	}
	for _, m := range chain.Placeholders().FindAllStringSubmatch(text, -1) {
		if in, ok := v.UndeclaredInput(m[1]); ok {
			v.d.Warnf(s.At(field), "state %q: %s: %s: %s", s.Name, field, m[0], v.UndeclaredInputNote(in, "it shows as "+chain.Unset(m[1])))
			continue
		}
		if why := v.placeholder(m[1]); why != "" {
			v.stateTextError(s, field, m[0], why)
		}
	}
	return t
}

// guidanceRead says why a goal or guidance cannot read name.path, or "".
func (v *checker) guidanceRead(name string, path []string) string {
	if name != "input" {
		return v.NameCheck(name)
	}
	if len(path) == 0 {
		return fmt.Sprintf("{input} needs an input name, as in {input.%s}", chain.FirstInput(v.c))
	}
	if !v.HasInput(path[0]) {
		return fmt.Sprintf("no input is named %s%s", path[0], spell.DidYouMean(path[0], v.InputNames()))
	}
	return ""
}

// placeholder says why a {{ $.path }} of a goal or guidance selects
// nothing whatever the run holds, or "".
func (v *checker) placeholder(expr string) string {
	if _, err := jsonpath.Parse(expr); err != nil {
		return fmt.Sprintf("%q is not a valid JSONPath: %v", expr, err)
	}
	name, path := chain.JSONPathHead(strings.Replace(expr, "$.workflow.input", "$.input", 1))
	switch name {
	case "", "context", "arguments", "workflow":
		return ""
	case "input":
		if len(path) == 0 {
			return ""
		}
		return v.guidanceRead(name, path)
	}
	return fmt.Sprintf("$.%s selects nothing here: a goal or guidance reads $.input (or $.workflow.input), $.context and $.arguments; a variable is {%s}", name, name)
}

func (v *checker) stateTextError(s *chain.State, field, raw, why string) {
	if v.Options().LenientVariables {
		v.d.Warnf(s.At(field), "state %q: %s: %s shows as unset: %s", s.Name, field, raw, why)
		return
	}
	v.d.Errorf(s.At(field), "state %q: %s: %s: %s", s.Name, field, raw, why)
}

// titleText warns of a transition title that holds a reference or a
// {{ $.path }} placeholder: a title is shown as written wherever a link
// is (hints, retry lines, MCP, the deciding model's list), never filled
// in, so what varies belongs in the state's goal or guidance.
func (v *checker) titleText(t *chain.Transition) {
	if t.Title == "" {
		return
	}
	var found []string
	for _, r := range chain.ParseTemplate(t.Title).Refs() {
		found = append(found, r.Raw)
	}
	for _, m := range chain.Placeholders().FindAllString(t.Title, -1) {
		found = append(found, m)
	}
	for _, raw := range found {
		v.d.Warnf(t.At("title"), "transition %q: title: %s is shown as written: a title is not filled in; put what varies in the state's goal or guidance", t.Name, raw)
	}
}
