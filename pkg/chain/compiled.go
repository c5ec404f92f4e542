package chain

import (
	"regexp"

	"github.com/theory/jsonpath"
)

// Compiled holds what validation parsed from a step's text fields, so the
// engine never parses a template or expression at run time.
type Compiled struct {
	Prompt, System, Command, Run, Cwd, URL, Body, Path, ForEach *Template
	Args                                                        []Arg
	Env, Headers, With                                          map[string]*Template
	PreTools                                                    []CompiledPreTool
	Condition, EarlyExitIf, Transform                           *Expression
	// Patterns holds the compiled regex_match guardrails by index.
	Patterns map[int]*regexp.Regexp
}

// Arg is one argv element: a template, or (reference 000) a JSONPath such
// as $.input.service resolved against the run context.
type Arg struct {
	Template *Template
	JSONPath *jsonpath.Path
	Raw      string
}

// CompiledPreTool is a pre_tool with its templates parsed.
type CompiledPreTool struct {
	Command, Run, URL, Path *Template
	Args                    []*Template
	Headers                 map[string]*Template
}

// C returns the compiled forms of the step's fields. It is only valid on a
// step of a chain that passed validation.
func (s *Step) C() *Compiled { return s.compiled }

type compiledStep = Compiled
