package chain

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/chainrun/chainrun/pkg/chain/fileschema"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/theory/jsonpath"
)

// Compiled holds what validation parsed from a step's text fields, so the
// engine never parses a template or expression at run time.
type Compiled struct {
	Prompt, System, Command, Run, Cwd, URL, Body, Path, ForEach *Template
	// PathJSON is a file step's path written as a JSONPath
	// ($.context.p), resolved as an argument is; Path is then nil.
	PathJSON *Arg
	Args     []Arg
	// Env values are read as args are: a template, or a JSONPath
	// ($.context.x, mcp-flowgate's form).
	Env                               map[string]Arg
	Headers, With                     map[string]*Template
	PreTools                          []CompiledPreTool
	Condition, EarlyExitIf, Transform *Expression
	// AutoApprove is a gate's gate_auto_approve_if.
	AutoApprove *Expression
	// LoopUntil stops a loop step; TemplateStr is a transform
	// operation's template_str (template and map operations) and InputVar
	// the variable it reads.
	LoopUntil   *Expression
	TemplateStr *Template
	InputVar    *Template
	// Patterns holds the compiled regex_match guardrails by index.
	Patterns map[int]*regexp.Regexp
	// Schemas holds the compiled json_schema guardrails by index.
	Schemas map[int]*jsonschema.Resolved
	// BodyJSON is an http body written as a mapping, Query its query
	// parameters; IdempotencyKey is a step's key written as text
	// (step_key.go).
	BodyJSON       *Mapped
	Query          map[string]*Mapped
	IdempotencyKey *Template
	// Inputs are the values a workflow step gives the workflow it runs
	// (use.inputs, or input:), by input name.
	Inputs *Mapped
	// ToolArgs are an mcp step's arguments, by name.
	ToolArgs map[string]MCPArg
	// Candidates are where a structural_analysis step looks for its
	// candidate, the first that is set: its definition:, else
	// DefaultCandidates.
	Candidates []*Mapped
	// CandidateIDs are where a dry_run or registry step finds its
	// candidate's name: its definitionId:, else DefaultCandidateIDs.
	CandidateIDs []*Mapped
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
	Command, Run, URL, Path, Body, Content, Query *Template
	Args                                          []*Template
	Headers                                       map[string]*Template
}

// C returns the compiled forms of the step's fields. It is only valid on a
// step of a chain that passed validation.
func (s *Step) C() *Compiled { return s.compiled }

type compiledStep = Compiled

// compileSchema compiles a json_schema guardrail's value: a schema written
// as YAML, or as JSON text.
func compileSchema(value any) (*jsonschema.Resolved, error) {
	var text []byte
	switch v := value.(type) {
	case nil:
		return nil, fmt.Errorf("needs a schema as its value")
	case string:
		text = []byte(v)
	default:
		b, err := json.Marshal(NormalizeYAML(v))
		if err != nil {
			return nil, err
		}
		text = b
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(text, &sch); err != nil {
		return nil, fmt.Errorf("the schema is not valid: %v", err)
	}
	var doc any
	if json.Unmarshal(text, &doc) == nil {
		if bad := fileschema.UnknownTypes(doc); bad != "" {
			return nil, fmt.Errorf("%s", bad)
		}
	}
	rs, err := sch.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("%s", interp.FirstLine(err.Error()))
	}
	return rs, nil
}

// MCPArg is one argument of an mcp step: a template, or a value whose
// $.-paths are read when it runs.
type MCPArg struct {
	Template *Template
	Mapped   *Mapped
}
