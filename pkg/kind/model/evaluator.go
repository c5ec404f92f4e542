package model

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"
	"slices"
	"strings"
)

// EvaluatorFields configure an evaluator step (OCC's evaluator): a model
// judges a variable against criteria, by PASS/FAIL or by a score from 1
// to 10, and a failed verdict can run an earlier step again with the
// evaluation fed back.
type EvaluatorFields struct {
	Criteria string `yaml:"criteria" doc:"What an evaluator step judges by; {variables} are filled in."`
	// EvalScoring asks for a score from 1 to 10 instead of PASS or FAIL.
	EvalScoring   bool     `yaml:"eval_scoring" doc:"true: the model scores from 1 to 10 and the verdict is PASS when the score reaches eval_threshold; false: it answers PASS or FAIL."`
	EvalThreshold *float64 `yaml:"eval_threshold" doc:"The lowest passing score of an evaluator step with eval_scoring (default 7)."`
	OnFail        string   `yaml:"on_fail" doc:"What a FAIL verdict does: continue (the default; skip is the same), error (the step fails), retry (run retry_target again with the evaluation, then judge again, at most max_retries times)."`
	MaxRetries    *int     `yaml:"max_retries" doc:"How many times on_fail: retry runs retry_target again (default 2)."`
	RetryTarget   string   `yaml:"retry_target" doc:"The step on_fail: retry runs again, with the evaluation added to its prompt: a step the evaluator depends on."`
}

// The verdicts of an evaluator step, its output.
const (
	VerdictPass = "PASS"
	VerdictFail = "FAIL"
)

// The on_fail values of an evaluator step.
const (
	OnFailContinue = "continue"
	OnFailSkip     = "skip"
	OnFailError    = "error"
	OnFailRetry    = "retry"
)

// DefaultEvalThreshold is the passing score without eval_threshold, and
// DefaultEvalRetries the retries without max_retries (OCC's).
const (
	DefaultEvalThreshold = 7
	DefaultEvalRetries   = 2
)

var onFailValues = []string{OnFailContinue, OnFailSkip, OnFailError, OnFailRetry}

// evaluatorKind asks a model (it takes every field of an agent step) to
// judge input_var against criteria; its output is PASS or FAIL.
func init() {
	chain.Register(chain.Unit{
		Kind:           chain.KindEvaluator,
		Order:          140,
		Body:           reflect.TypeFor[EvaluatorFields](),
		Also:           []string{"input_var"},
		Borrows:        chain.KindAgent,
		Conversational: true,
		Check: func(v chain.Checker, s *chain.Step) {
			who := s.Subject()
			if s.InputVar().InputVar == "" {
				v.Errorf(s.Pos, "%s: input_var is required for an evaluator step: the variable it judges", who)
			}
			if strings.TrimSpace(Evaluator(s).Criteria) == "" && strings.TrimSpace(s.Agent().Prompt) == "" {
				v.Errorf(s.Pos, "%s: criteria is required for an evaluator step: what it judges by", who)
			}
			if Evaluator(s).OnFail != "" && !slices.Contains(onFailValues, Evaluator(s).OnFail) {
				v.Errorf(s.At("on_fail"), "%s: on_fail %q is not %s", who, Evaluator(s).OnFail, chain.OrList(onFailValues))
			}
			if t := Evaluator(s).EvalThreshold; t != nil && !Evaluator(s).EvalScoring {
				v.Errorf(s.At("eval_threshold"), "%s: eval_threshold applies to a score: set eval_scoring: true, or remove it for a PASS/FAIL verdict", who)
			} else if t != nil && (*t < 0 || *t > 10) {
				v.Errorf(s.At("eval_threshold"), "%s: eval_threshold %v is not a score from 0 to 10", who, *t)
			}
			if Evaluator(s).MaxRetries != nil && (*Evaluator(s).MaxRetries < 0 || *Evaluator(s).MaxRetries > chain.MaxRetryAttempts) {
				v.Errorf(s.At("max_retries"), "%s: max_retries must be from 0 to %d", who, chain.MaxRetryAttempts)
			}
			switch {
			case Evaluator(s).OnFail == OnFailRetry && Evaluator(s).RetryTarget == "":
				v.Errorf(s.At("on_fail"), "%s: on_fail: retry needs retry_target: the step to run again with the evaluation", who)
			case Evaluator(s).RetryTarget != "" && Evaluator(s).OnFail != OnFailRetry:
				v.Errorf(s.At("retry_target"), "%s: retry_target is used by on_fail: retry only (on_fail is %q)", who, Evaluator(s).OnFail)
			}
		},
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			v.Template(s, "prompt", s.Agent().Prompt)
			v.Template(s, "criteria", Evaluator(s).Criteria)
			c.System = v.Template(s, "system", s.Agent().System)
			c.Cwd = v.Template(s, "cwd", s.Workdir().Cwd)
			if s.InputVar().InputVar != "" {
				if !chain.IsIdentifier(s.InputVar().InputVar) {
					v.Errorf(s.At("input_var"), "%s: input_var %q: a variable name is letters, digits and '_'", s.Subject(), s.InputVar().InputVar)
					return
				}
				v.Template(s, "input_var", "{"+s.InputVar().InputVar+"}")
			}
			c.Prompt = chain.ParseTemplate(EvaluationPrompt(s))
			if Evaluator(s).RetryTarget == "" {
				return
			}
			switch {
			case v.Graph() == nil || s.Owner() != "":
				v.Errorf(s.At("retry_target"), "%s: retry_target names a step of a DAG chain; a workflow's evaluator cannot run one again", s.Subject())
			case v.Chain().Step(Evaluator(s).RetryTarget) == nil:
				v.Errorf(s.At("retry_target"), "%s: retry_target %q is not a step%s", s.Subject(), Evaluator(s).RetryTarget, chain.DidYouMean(Evaluator(s).RetryTarget, v.Chain().StepIDs()))
			case !v.Graph().DependsOn(s.ID, Evaluator(s).RetryTarget):
				v.Errorf(s.At("retry_target"), "%s: retry_target %q is not a step it depends on: only a step whose output reaches the evaluator can be run again for it", s.Subject(), Evaluator(s).RetryTarget)
			}
		},
	})
}

// EvaluationPrompt is the text an evaluator step sends its model, as a
// template: its prompt, how to answer, its criteria and the value judged.
func EvaluationPrompt(s *chain.Step) string {
	var b strings.Builder
	if p := strings.TrimSpace(s.Agent().Prompt); p != "" {
		b.WriteString(p + "\n\n")
	}
	if Evaluator(s).EvalScoring {
		b.WriteString("Score the output below from 1 to 10 against the criteria. Answer with the score alone on the first line, then a short explanation.")
	} else {
		b.WriteString("Judge the output below against the criteria. Answer PASS or FAIL alone on the first line, then a short explanation.")
	}
	if c := strings.TrimSpace(Evaluator(s).Criteria); c != "" {
		b.WriteString("\n\nCriteria:\n" + c)
	}
	b.WriteString("\n\nOutput to evaluate:\n{" + s.InputVar().InputVar + "}")
	return b.String()
}

// Threshold is the lowest passing score of a scoring evaluator.
func Threshold(s *chain.Step) float64 {
	if Evaluator(s).EvalThreshold != nil {
		return *Evaluator(s).EvalThreshold
	}
	return DefaultEvalThreshold
}

// Retries is how many times a failed verdict runs retry_target again.
func Retries(s *chain.Step) int {
	switch {
	case Evaluator(s).OnFail != OnFailRetry:
		return 0
	case Evaluator(s).MaxRetries != nil:
		return *Evaluator(s).MaxRetries
	}
	return DefaultEvalRetries
}

// Evaluator is the step's EvaluatorFields, a shared zero value when it has none (read
// only; write through Own).
func Evaluator(s *chain.Step) *EvaluatorFields { return chain.Part[EvaluatorFields](s) }
