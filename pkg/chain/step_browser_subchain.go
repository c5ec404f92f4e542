package chain

import (
	"fmt"
	"reflect"
)

// BrowserFields are OCC's browser step: a model driving a web browser.
// chainrun loads such a step (so the rest of a file can be checked and
// run) but running it fails, naming the step.
type BrowserFields struct {
	Action      string `yaml:"action" doc:"browser (not supported: running the step fails): what to do, as screenshot."`
	BrowserURL  string `yaml:"browser_url" doc:"browser (not supported): the starting URL."`
	BrowserTask string `yaml:"browser_task" doc:"browser (not supported): the task."`
}

func init() {
	Register(Unit{
		Kind:   KindBrowser,
		Order:  210,
		Body:   reflect.TypeFor[BrowserFields](),
		Also:   append([]string{"url", "tools"}, ModelKeys...),
		Models: true,
	})
}

// subchainKind is OCC's `type: subchain`, a chain step under another
// name: chain names the chain, inputs (a mapping) are its with. It is
// checked as written and then becomes a chain step.
func init() {
	Register(Unit{
		Kind:    KindSubchain,
		Order:   180,
		Also:    []string{"chain", "with", "inputs", "prompt"},
		Ignored: []string{"model"},
		Check: func(v Checker, s *Step) {
			if s.Inputs().Inputs != nil {
				m, ok := s.Inputs().Inputs.(map[string]any)
				if !ok {
					v.Errorf(s.At("inputs"), "%s: a subchain's inputs are a mapping: the called chain's input names and their values", s.Subject())
				}
				if Call(s).With != nil {
					v.Errorf(s.At("inputs"), "%s: set inputs or with, not both", s.Subject())
				}
				Own[CallFields](s).With = map[string]string{}
				for k, x := range m {
					Own[CallFields](s).With[k] = textOfYAML(x)
				}
				Own[CallFields](s).withKey = "inputs"
			}
			s.Kind = KindChain
			checkCall(v, s)
		},
	})
}

// textOfYAML is a YAML scalar as the text an input takes.
func textOfYAML(x any) string {
	if str, ok := x.(string); ok {
		return str
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}

// Browser is the step's BrowserFields, a shared zero value when it has none (read
// only; write through Own).
func Browser(s *Step) *BrowserFields { return Part[BrowserFields](s) }
