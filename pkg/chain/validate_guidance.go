package chain

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/theory/jsonpath"
)

// placeholderPattern is a {{ $.path }} in a goal or guidance.
var placeholderPattern = lazyRegexp(`\{\{\s*(\$[^{}]*?)\s*\}\}`)

// Placeholders finds the {{ $.path }} placeholders of a goal's or
// guidance's text, the path in the first group: validation checks them
// and the run fills them with the same pattern.
func Placeholders() *regexp.Regexp { return placeholderPattern() }

// stateTexts parses a state's goal and guidance as templates, so that
// {input.x}, {context.x} and {variable} mean there what they mean in a
// prompt, and checks every reference and {{ $.path }} placeholder they
// hold. A goal a task chain's description became (not written as goal:)
// stays text.
func (v *validator) stateTexts(s *State) {
	s.goal = v.stateText(s, "goal", s.Goal)
	s.guidance = v.stateText(s, "guidance", s.Guidance)
}

func (v *validator) stateText(s *State, field, text string) *Template {
	if _, written := s.FieldPos[field]; !written || text == "" {
		return nil
	}
	t := ParseTemplate(text)
	for _, r := range t.Refs() {
		if why := v.guidanceRead(r.Name, r.Path); why != "" {
			v.stateTextError(s, field, r.Raw, why)
		}
	}
	for _, m := range placeholderPattern().FindAllStringSubmatch(text, -1) {
		if in, ok := v.undeclaredInput(m[1]); ok {
			v.d.Warnf(s.At(field), "state %q: %s: %s: %s", s.Name, field, m[0], v.undeclaredInputNote(in, "it shows as "+Unset(m[1])))
			continue
		}
		if why := v.placeholder(m[1]); why != "" {
			v.stateTextError(s, field, m[0], why)
		}
	}
	return t
}

// guidanceRead says why a goal or guidance cannot read name.path, or "".
func (v *validator) guidanceRead(name string, path []string) string {
	if name != "input" {
		return v.workflowCheck(nil, name)
	}
	if len(path) == 0 {
		return fmt.Sprintf("{input} needs an input name, as in {input.%s}", firstInput(v.c))
	}
	if !v.hasInput(path[0]) {
		return fmt.Sprintf("no input is named %s%s", path[0], didYouMean(path[0], v.inputNames()))
	}
	return ""
}

// placeholder says why a {{ $.path }} of a goal or guidance selects
// nothing whatever the run holds, or "".
func (v *validator) placeholder(expr string) string {
	if _, err := jsonpath.Parse(expr); err != nil {
		return fmt.Sprintf("%q is not a valid JSONPath: %v", expr, err)
	}
	name, path := JSONPathHead(strings.Replace(expr, "$.workflow.input", "$.input", 1))
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

func (v *validator) stateTextError(s *State, field, raw, why string) {
	if v.opts.LenientVariables {
		v.d.Warnf(s.At(field), "state %q: %s: %s shows as unset: %s", s.Name, field, raw, why)
		return
	}
	v.d.Errorf(s.At(field), "state %q: %s: %s: %s", s.Name, field, raw, why)
}

// titleText warns of a transition title that holds a reference or a
// {{ $.path }} placeholder: a title is shown as written wherever a link
// is (hints, retry lines, MCP, the deciding model's list), never filled
// in, so what varies belongs in the state's goal or guidance.
func (v *validator) titleText(t *Transition) {
	if t.Title == "" {
		return
	}
	var found []string
	for _, r := range ParseTemplate(t.Title).Refs() {
		found = append(found, r.Raw)
	}
	for _, m := range placeholderPattern().FindAllString(t.Title, -1) {
		found = append(found, m)
	}
	for _, raw := range found {
		v.d.Warnf(t.At("title"), "transition %q: title: %s is shown as written: a title is not filled in; put what varies in the state's goal or guidance", t.Name, raw)
	}
}
