package basic

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TransformFields configure a transform step: one expression over the
// run's variables, whose value is the output; or one of OCC's operations
// over the text of input_var (else of the rendered prompt).
type TransformFields struct {
	Expr string `yaml:"expr" doc:"expr-lang expression of a transform step."`
	// Operation is OCC's transform: a named operation instead of expr.
	Operation     string `yaml:"operation" doc:"Instead of expr, OCC's operation over input_var (else the rendered prompt): json_extract, regex_match, template, split, merge, truncate, replace, filter, map, join, to_json or from_json."`
	JSONPath      string `yaml:"json_path" doc:"json_extract: the dotted path read (results.0.name; * maps the rest over a list)."`
	Regex         string `yaml:"regex" doc:"regex_match, filter and replace: the regular expression (Go syntax)."`
	TemplateStr   string `yaml:"template_str" doc:"template and map: the template ({item} and {index} in map); join: the separator (default a newline); replace: the replacement ($1 for a group)."`
	TruncateLimit int    `yaml:"truncate_limit" doc:"truncate: the most characters kept (default 5000)."`

	pattern *regexp.Regexp
}

// Transform operations (OCC's).
const (
	OpJSONExtract = "json_extract"
	OpRegexMatch  = "regex_match"
	OpTemplate    = "template"
	OpSplit       = "split"
	OpMerge       = "merge"
	OpTruncate    = "truncate"
	OpReplace     = "replace"
	OpFilter      = "filter"
	OpMap         = "map"
	OpJoin        = "join"
	OpToJSON      = "to_json"
	OpFromJSON    = "from_json"
)

// OpPassThrough is what OCC's executor does for a transform without an
// operation it knows: the input is the output. No file writes it; an OCC
// file's transform without expr, or with an unknown operation, runs so.
const OpPassThrough = "(pass through)"

// TransformOperations are OCC's transform operations.
var TransformOperations = []string{OpJSONExtract, OpRegexMatch, OpTemplate, OpSplit, OpMerge, OpTruncate, OpReplace, OpFilter, OpMap, OpJoin, OpToJSON, OpFromJSON}

// Pattern is a transform operation's compiled regex.
func Pattern(s *chain.Step) *regexp.Regexp { return Transform(s).pattern }

// MapLocals are the names a map operation's template_str reads.
var MapLocals = []string{"item", "index"}

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindTransform,
		Schema: map[string]any{"operation": map[string]any{"enum": TransformOperations}},
		Order:  40,
		Body:   reflect.TypeFor[TransformFields](),
		// OCC writes a prompt on every step; a transform operation reads it
		// when it has no input_var
		Also:  []string{"input_var", "prompt", "inputs"},
		Check: checkTransform,
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			if Transform(s).Operation == "" {
				c.Transform = v.Expression(s, "expr", Transform(s).Expr, false, false)
				return
			}
			compileOperation(v, s, c)
		},
	})
}

func checkTransform(v chain.Checker, s *chain.Step) {
	loosePassThrough(v, s)
	op := Transform(s).Operation
	switch {
	case Transform(s).Expr == "" && op == "":
		v.Errorf(s.Pos, "%s: expr is required for a transform step (or OCC's operation)", s.Subject())
		return
	case Transform(s).Expr != "" && op != "":
		v.Errorf(s.At("operation"), "%s: set expr or operation, not both", s.Subject())
		return
	case Transform(s).Expr != "":
		for _, f := range []string{"input_var", "json_path", "regex", "template_str", "truncate_limit", "inputs"} {
			if _, set := s.FieldPos[f]; set {
				v.Errorf(s.At(f), "%s: %s belongs to a transform operation; an expr reads variables by name", s.Subject(), f)
			}
		}
		return
	case !slices.Contains(TransformOperations, op) && op != OpPassThrough:
		v.Errorf(s.At("operation"), "%s: unknown operation %q%s; operations are %s", s.Subject(), op, chain.DidYouMean(op, TransformOperations), strings.Join(TransformOperations, ", "))
		return
	}
	need := map[string]string{OpJSONExtract: "json_path", OpRegexMatch: "regex", OpReplace: "regex", OpFilter: "regex", OpTemplate: "template_str"}[op]
	if f := need; f != "" {
		if _, set := s.FieldPos[f]; !set {
			v.Errorf(s.Pos, "%s: operation %s needs %s", s.Subject(), op, f)
		}
	}
	if _, set := s.FieldPos["regex"]; set && Transform(s).Regex == "" {
		emptyRegex(v, s)
	}
	if _, set := s.FieldPos["regex"]; set || Transform(s).Regex != "" {
		re, err := regexp.Compile(Transform(s).Regex)
		if err != nil {
			v.Errorf(s.At("regex"), "%s: regex: %v", s.Subject(), err)
		}
		chain.Own[TransformFields](s).pattern = re
	}
	if Transform(s).TruncateLimit < 0 {
		v.Errorf(s.At("truncate_limit"), "%s: truncate_limit cannot be negative", s.Subject())
	}
	switch op {
	case OpMerge:
		v.InputList(s, "a merge operation")
	case OpTemplate:
	default:
		if s.InputVar().InputVar == "" && s.Agent().Prompt == "" {
			v.Errorf(s.Pos, "%s: operation %s reads input_var (a variable), or else the prompt: set input_var", s.Subject(), op)
		}
	}
}

// loosePassThrough reads, where the reading takes it
// (Reading.LooseTransforms: OCC's executor), a transform without expr or
// operation, or with an operation chainrun has not, as the peer runs it:
// its input (input_var, else the prompt) is its output, with a warning;
// chainrun's own format refuses both.
func loosePassThrough(v chain.Checker, s *chain.Step) {
	rd := v.Chain().Reading()
	if !rd.LooseTransforms || Transform(s).Expr != "" || (s.InputVar().InputVar == "" && s.Agent().Prompt == "") || slices.Contains(TransformOperations, Transform(s).Operation) {
		return
	}
	if Transform(s).Operation == "" {
		v.Warnf(s.Pos, "%s: no operation: the input is the output, as %s runs it (chainrun's own format asks for expr or operation)", s.Subject(), rd.Source)
	} else {
		v.Warnf(s.At("operation"), "%s: unknown operation %q%s: the input is the output, as %s runs it (chainrun's own format refuses it; operations are %s)",
			s.Subject(), Transform(s).Operation, chain.DidYouMean(Transform(s).Operation, TransformOperations), rd.Source, strings.Join(TransformOperations, ", "))
	}
	chain.Own[TransformFields](s).Operation = OpPassThrough
}

// emptyRegex judges a regex: ” — in an OCC file it means what OCC's
// executor makes of it (replace leaves the text unchanged; filter keeps
// every line; regex_match finds the empty matches), with a warning; in
// chainrun's own format it is a mistake, refused.
func emptyRegex(v chain.Checker, s *chain.Step) {
	if !v.Chain().Reading().LooseTransforms {
		v.Errorf(s.At("regex"), "%s: regex is empty: operation %s needs a pattern", s.Subject(), Transform(s).Operation)
		return
	}
	v.Warnf(s.At("regex"), "%s: regex is empty: it matches everywhere and a replace leaves the text unchanged, as %s runs it (chainrun's own format refuses it)", s.Subject(), v.Chain().Reading().Source)
}

func compileOperation(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	if s.InputVar().InputVar != "" {
		r, ok := chain.ParseRef(strings.Trim(strings.TrimSpace(s.InputVar().InputVar), "{}"))
		if !ok {
			v.Errorf(s.At("input_var"), "%s: input_var names one variable, as in input_var: draft", s.Subject())
		} else {
			v.Ref(s, "input_var", r)
			c.InputVar = chain.ParseTemplate(r.Raw)
		}
	} else if Transform(s).Operation != OpTemplate && Transform(s).Operation != OpMerge {
		c.Prompt = v.Template(s, "prompt", s.Agent().Prompt)
	}
	for _, name := range s.MergeInputs() {
		r, _ := chain.ParseRef(name)
		v.Ref(s, "inputs", r)
	}
	switch Transform(s).Operation {
	case OpTemplate:
		c.TemplateStr = v.Template(s, "template_str", Transform(s).TemplateStr)
	case OpMap:
		text := Transform(s).TemplateStr
		if text == "" {
			text = "{item}"
		}
		s.SetLocals(MapLocals)
		c.TemplateStr = v.Template(s, "template_str", text)
		s.SetLocals(nil)
	}
}

// Transform is the step's TransformFields, a shared zero value when it has none (read
// only; write through Own).
func Transform(s *chain.Step) *TransformFields { return chain.Part[TransformFields](s) }
