package model

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// An evaluator step asks its model as an agent step does, with the prompt
// chain.EvaluationPrompt composed (criteria, how to answer, the value
// judged), and reads a verdict from the answer: a score from 1 to 10
// against eval_threshold (eval_scoring), else PASS or FAIL. Its output is
// PASS or FAIL. A FAIL fails the step under on_fail: error; otherwise the
// step succeeds with it, and under on_fail: retry the DAG driver runs
// retry_target again and asks again (evaluate.go).
func init() {
	run.Register(chain.KindEvaluator, run.Runner{
		// on_fail: retry runs retry_target again while the verdict is FAIL
		Again: func(s *chain.Step, verdict string) (string, int) {
			if verdict != VerdictFail {
				return "", 0
			}
			return Evaluator(s).RetryTarget, Retries(s)
		},
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			out, err := a.Agent(ctx)
			if err != nil {
				return out, err
			}
			answer := out.Value.Text
			verdict, score, why := judge(s, answer)
			out.Value, out.Decision, out.Score, out.Answer, out.Result = interp.Value{Text: verdict}, verdict, score, answer, verdict
			if verdict == VerdictFail && Evaluator(s).OnFail == OnFailError {
				return out, run.Permanent(fmt.Errorf("the evaluation failed (%s; on_fail: error)", why))
			}
			return out, nil
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			v.Agent(s, p)
			if Evaluator(s).RetryTarget != "" {
				p.Action += fmt.Sprintf("\n(on FAIL: run %s again with the evaluation, at most %d times)", Evaluator(s).RetryTarget, Retries(s))
			}
		},
		// a workflow task branches on the verdict
		Result: func(_ func(string) (interp.Value, bool), _ *chain.Step, sr *record.StepResult) (string, bool) {
			return sr.Decision, sr.Decision != ""
		},
		Admit: run.AdmitModel,
	})
}

// firstNumber is the first number of a text ("8", "Score: 7.5/10").
var firstNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+(\.\d+)?`) })

// judge reads an evaluator's answer: its verdict, its score when it
// scores, and why, in words.
func judge(s *chain.Step, answer string) (verdict string, score *float64, why string) {
	first := ""
	for line := range strings.Lines(answer) {
		if first = strings.TrimSpace(line); first != "" {
			break
		}
	}
	if Evaluator(s).EvalScoring {
		m := firstNumber().FindString(first)
		if m == "" {
			return VerdictFail, nil, fmt.Sprintf("the answer gives no score: %q", record.Clip(first, 60))
		}
		n, _ := strconv.ParseFloat(m, 64)
		score = &n
		if n >= Threshold(s) {
			return VerdictPass, score, fmt.Sprintf("score %s, threshold %s", m, strconv.FormatFloat(Threshold(s), 'f', -1, 64))
		}
		return VerdictFail, score, fmt.Sprintf("score %s is below the threshold %s", m, strconv.FormatFloat(Threshold(s), 'f', -1, 64))
	}
	word := strings.ToUpper(strings.Trim(strings.SplitN(strings.TrimLeft(first, "*#`_ "), " ", 2)[0], "*`_:.,!\"'"))
	switch word {
	case VerdictPass:
		return VerdictPass, nil, "PASS"
	case VerdictFail:
		return VerdictFail, nil, "the answer is FAIL"
	}
	return VerdictFail, nil, fmt.Sprintf("the answer begins with neither PASS nor FAIL: %q", record.Clip(first, 60))
}
