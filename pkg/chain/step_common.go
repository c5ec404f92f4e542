package chain

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
)

// kindFields checks a step against its kind: fields of another kind are
// named with the kinds they belong to, then the kind's own checks and the
// common ones run.
func (v *validator) kindFields(s *Step) {
	var fields []string
	for f := range s.FieldPos {
		if !fieldAllowed(s.Kind, f) {
			fields = append(fields, f)
		}
	}
	sort.Slice(fields, func(i, j int) bool { return s.FieldPos[fields[i]].Line < s.FieldPos[fields[j]].Line })
	for _, f := range fields {
		if f == KeyField && v.keySentNowhere(s) {
			continue
		}
		if u := unitOf(s.Kind); u != nil && slices.Contains(u.Ignored, f) {
			v.d.Warnf(s.At(f), "%s: %s is ignored: a %s step calls no model", s.Subject(), f, s.Kind)
			continue
		}
		if !runsModel(s.Kind) && modelOnly(f) {
			v.d.Errorf(s.At(f), "%s: %s configures a model call; a %s step runs no model", s.Subject(), f, s.Kind)
			continue
		}
		v.d.Errorf(s.At(f), "%s: %s does not belong to a %s step (it is a field of %s steps)", s.Subject(), f, s.Kind, strings.Join(fieldOwners(f), ", "))
	}
	if u := unitOf(s.Kind); u != nil && u.Check != nil && len(s.meant) == 0 {
		u.Check(Checker{v}, s)
	}
	if fieldAllowed(s.Kind, KeyField) {
		v.checkKey(s)
	}
	v.commonFields(s)
}

// stepKind resolves the kind of a step written inside something (an
// executor, a task, a parallel step's branch), which must say it, and
// checks its fields against it; false when the kind does not exist.
func (v *validator) stepKind(s *Step, name string) bool {
	if s.unregistered != "" {
		// its fields are another kind's, which nobody here knows
		s.Kind = KindNoop
		return true
	}
	kind, known := kindOf(s.Type)
	if !known {
		v.d.Errorf(s.At("type"), "%s", unknownKind(name, "kind", s.Type, Kinds()))
		return false
	}
	if _, set := s.FieldPos["type"]; !set {
		v.d.Errorf(s.Pos, "%s: kind is required (cli, http, transform, agent, file, chain, script, parallel, workflow…)", name)
	}
	s.Kind = kind
	v.kindFields(s)
	return true
}

// The largest values of the time fields every step has. A larger one is a
// validation error: past these, a duration overflows (a negative timeout
// fires at once, a negative delay makes a hot retry loop) long before it
// can mean anything to a run.
const (
	// MaxTimeoutMS is the most timeout_ms may be: 7 days.
	MaxTimeoutMS = 7 * 24 * 60 * 60 * 1000
	// MaxRetryDelayMS is the most retry.delay_ms may be, and the longest
	// any wait between a step's attempts grows to by backoff: one hour.
	MaxRetryDelayMS = 60 * 60 * 1000
	// MaxRetryBackoff is the largest retry.backoff factor.
	MaxRetryBackoff = 10
	// MaxRetryAttempts is the most retry.max may be: past it a step that
	// keeps failing (with no delay, a hot loop) never ends in any time
	// that means something to a run.
	MaxRetryAttempts = 1000
	// MaxAgentTurns is the most max_turns may be: the model calls one
	// agent step with tools makes. Each may cost money, and a model that
	// keeps asking for tools otherwise keeps a run going for days.
	MaxAgentTurns = 1000
	// MaxDebateRounds is the most rounds a debate may run; each asks
	// every agent once.
	MaxDebateRounds = 100
	// MaxChainDepthLimit is the most a workflow's maxChainDepth may be:
	// the transitions one call takes on its own.
	MaxChainDepthLimit = 10000
)

func (v *validator) commonFields(s *Step) {
	if s.TimeoutMS < 0 {
		v.d.Errorf(s.At("timeout_ms"), "%s: timeout_ms must be positive", s.Subject())
	}
	if s.TimeoutMS > MaxTimeoutMS {
		v.d.Errorf(s.At("timeout_ms"), "%s: timeout_ms %d is more than %d (7 days), the longest a step may take", s.Subject(), s.TimeoutMS, MaxTimeoutMS)
	}
	if r := s.Retry; r != nil {
		if r.Max < 1 {
			v.d.Errorf(s.At("retry"), "%s: retry.max is the number of attempts in all, so 1 or more", s.Subject())
		}
		if r.Max > MaxRetryAttempts {
			v.d.Errorf(s.At("retry"), "%s: retry.max %d is more than %d, the most attempts a step may make", s.Subject(), r.Max, MaxRetryAttempts)
		}
		if r.DelayMS < 0 || r.Backoff < 0 || r.MaxDelayMS < 0 {
			v.d.Errorf(s.At("retry"), "%s: retry.delay_ms, retry.backoff and retry.max_delay_ms cannot be negative", s.Subject())
		}
		if r.MaxDelayMS > MaxRetryDelayMS {
			v.d.Errorf(s.At("retry"), "%s: retry.max_delay_ms %d is more than %d (one hour)", s.Subject(), r.MaxDelayMS, MaxRetryDelayMS)
		}
		if r.DelayMS > MaxRetryDelayMS {
			v.d.Errorf(s.At("retry"), "%s: retry.delay_ms %d is more than %d (one hour), the longest wait between attempts", s.Subject(), r.DelayMS, MaxRetryDelayMS)
		}
		if r.Backoff > MaxRetryBackoff || math.IsNaN(r.Backoff) {
			v.d.Errorf(s.At("retry"), "%s: retry.backoff %g is more than %g; each wait is also capped at one hour", s.Subject(), r.Backoff, float64(MaxRetryBackoff))
		}
	}
	if s.Idempotent != nil && !*s.Idempotent && s.Attempts() > 1 {
		v.d.Errorf(s.At("retry"), "%s: idempotent: false means it never runs again on its own: remove retry", s.Subject())
	}
	if s.OutputMaxLength < 0 {
		v.d.Errorf(s.At("output_max_length"), "%s: output_max_length cannot be negative", s.Subject())
	}
	if s.OutputSchema != "" && !slices.Contains([]string{"json", "markdown", "text"}, s.OutputSchema) {
		v.d.Errorf(s.At("output_schema"), "%s: output_schema is json, markdown or text, not %q", s.Subject(), s.OutputSchema)
	}
	v.modelFields(s)
	v.guardrails(s)
}

// Guardrail types (reference 004, plus json_schema).
var guardrailTypes = []string{"min_length", "max_length", "must_contain", "must_not_contain", "regex_match", "json_valid", "json_schema"}

// GuardrailTypes are the types a guardrail may have.
func GuardrailTypes() []string { return slices.Clone(guardrailTypes) }

func (v *validator) guardrails(s *Step) {
	for i, g := range s.Guardrails {
		at := s.At("guardrails")
		switch g.Type {
		case "min_length", "max_length":
			if n, ok := interp.IntValue(g.Value); !ok || n < 0 {
				v.d.Errorf(at, "%s: guardrail %s needs a whole number value", s.Subject(), g.Type)
			}
		case "must_contain", "must_not_contain":
			if str, ok := g.Value.(string); !ok || str == "" {
				v.d.Errorf(at, "%s: guardrail %s needs a text value", s.Subject(), g.Type)
			}
		case "regex_match":
			str, ok := g.Value.(string)
			if !ok {
				v.d.Errorf(at, "%s: guardrail regex_match needs a regular expression", s.Subject())
				continue
			}
			re, err := regexp.Compile(str)
			if err != nil {
				v.d.Errorf(at, "%s: guardrail regex_match: %v", s.Subject(), err)
				continue
			}
			if s.compiled == nil {
				s.compiled = &Compiled{}
			}
			if s.compiled.Patterns == nil {
				s.compiled.Patterns = map[int]*regexp.Regexp{}
			}
			s.compiled.Patterns[i] = re
		case "json_valid":
		case "json_schema":
			sch, err := compileSchema(g.Value)
			if err != nil {
				v.d.Errorf(at, "%s: guardrail json_schema: %v", s.Subject(), err)
				continue
			}
			if s.compiled == nil {
				s.compiled = &Compiled{}
			}
			if s.compiled.Schemas == nil {
				s.compiled.Schemas = map[int]*jsonschema.Resolved{}
			}
			s.compiled.Schemas[i] = sch
		default:
			v.d.Errorf(at, "%s: unknown guardrail type %q%s; types are %s", s.Subject(), g.Type, DidYouMean(g.Type, guardrailTypes), strings.Join(guardrailTypes, ", "))
		}
	}
}

// compile parses the step's templates and expressions, checking every
// reference against what the step can see: the common fields here, the
// kind's own in its unit.
func (v *validator) compile(s *Step) {
	if s.compiled == nil {
		s.compiled = &Compiled{}
	}
	c := s.compiled
	s.reading = v.c.reading
	v.checkPreTools(s)
	if s.ForEach != "" {
		v.forEach(s)
	}
	if u := unitOf(s.Kind); u != nil && u.Compile != nil {
		u.Compile(Checker{v}, s, c)
	}
	if fieldAllowed(s.Kind, KeyField) {
		v.compileKey(s, c)
	}
	c.Condition = v.expression(s, "condition", s.Condition, false, true)
	c.EarlyExitIf = v.expression(s, "early_exit_if", s.EarlyExitIf, true, true)
	for _, fb := range s.Fallbacks {
		if fb.Kind != "" { // an unknown kind is reported already
			v.compile(fb)
		}
	}
}

func (v *validator) forEach(s *Step) {
	t := ParseTemplate(s.ForEach)
	refs := t.Refs()
	name := strings.TrimSpace(s.ForEach)
	if len(refs) == 1 && refs[0].Raw == name {
		v.ref(s, "for_each", refs[0])
		s.compiled.ForEach = t
		return
	}
	if IsIdentifier(name) {
		r := Ref{Name: name, Raw: name}
		v.ref(s, "for_each", r)
		s.compiled.ForEach = ParseTemplate("{" + name + "}")
		return
	}
	v.d.Errorf(s.At("for_each"), "%s: for_each names one list variable, as in for_each: \"{files}\"", s.Subject())
}

// OrList is "a, b or c", for messages naming the values a key takes.
func OrList(vals []string) string {
	if len(vals) < 2 {
		return strings.Join(vals, "")
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}
