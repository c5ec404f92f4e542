package run

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
)

// This file keeps a file read as OCC's within OCC's context budget
// (max_context_chars, chain.ContextBudget): after each step, when the
// run's variables hold more characters than the budget, the older step
// outputs, largest first, are summarized (or cut) until they fit, as
// OCC's executor does before the next steps read them. The steps' own
// outputs, the variables in the result and the chain's output stay whole:
// only what later steps read changes.

const (
	// budgetRecentKept is how many of the latest variables the budget
	// never touches (OCC's 3); budgetSmallest the size below which a
	// variable is left whole; budgetCutTo what a variable is cut to when
	// no summary comes.
	budgetRecentKept = 3
	budgetSmallest   = 500
	budgetCutTo      = 1000
	// budgetSummaryWait is how long a summary is waited for before
	// cutting (OCC's wait).
	budgetSummaryWait = 15 * time.Second
)

// keepContextBudget applies the chain's context budget after step s.
func (x *Execution) keepContextBudget(ctx context.Context, s *chain.Step) {
	limit := x.Chain.ContextBudget()
	if limit <= 0 || ctx.Err() != nil {
		return
	}
	x.contextMu.Lock()
	defer x.contextMu.Unlock()
	before := x.Vars.contextChars()
	if before <= limit {
		return
	}
	var done []string
	for _, name := range x.Vars.olderOutputs(budgetRecentKept) {
		if x.Vars.contextChars() <= limit {
			break
		}
		v, ok := x.Vars.read(name)
		n := utf8.RuneCountInString(v.Text)
		if !ok || n < budgetSmallest {
			continue
		}
		if summary, err := x.budgetSummary(ctx, s, name, v.Text); err == nil {
			x.Vars.squeeze(name, interp.TextValue(summary))
			done = append(done, fmt.Sprintf("%s summarized (%d → %d chars)", name, n, utf8.RuneCountInString(summary)))
			continue
		}
		x.Vars.squeeze(name, interp.Value{Text: string([]rune(v.Text)[:budgetCutTo]) + fmt.Sprintf("\n[auto-truncated from %d chars]", n)})
		done = append(done, fmt.Sprintf("%s cut to %d chars (no summary)", name, budgetCutTo))
	}
	if len(done) == 0 {
		return
	}
	x.Warn(fmt.Sprintf("after step %q: context budget: the variables hold %d chars, more than max_context_chars %d (OCC's default %d): %s, as OCC's executor does; now %d chars",
		s.ID, before, limit, x.Chain.Reading().ContextBudgetDefault, strings.Join(done, ", "), x.Vars.contextChars()))
}

// budgetSummary asks the models of the step that just ran (a step that
// calls none has no summary: its variables are cut, as OCC cuts them
// when its summarizer does not answer) for a summary of a variable.
func (x *Execution) budgetSummary(ctx context.Context, s *chain.Step, name, text string) (string, error) {
	if !s.Kind.Conversational() {
		return "", fmt.Errorf("step %s calls no model", s.ID)
	}
	targets, _, err := x.Engine.targets(x.Chain, s)
	if err != nil || len(targets) == 0 {
		return "", fmt.Errorf("no model for a summary of %s", name)
	}
	t := &tries{targets: targets}
	models, _ := x.stepModels(s, targets, x.observer(s, t, "context budget: summarize "+name))
	ctx, cancel := context.WithTimeout(ctx, budgetSummaryWait)
	defer cancel()
	resp, err := models.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.User, Content: summaryPrompt + text}}, MaxTokens: s.Agent().MaxTokens})
	if err != nil {
		return "", err
	}
	return resp.Text, nil
}

// contextChars counts the run's variables as OCC's executor counts its
// own: each input twice (OCC holds it as input.x and as x) and every
// step output.
func (s *Values) contextChars() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, v := range s.inputs {
		n += 2 * utf8.RuneCountInString(v)
	}
	for name := range s.vars {
		n += utf8.RuneCountInString(s.readLocked(name).Text)
	}
	return n
}

// read is the value a step reads of a variable: its summary or cut,
// when OCC's budget made one.
func (s *Values) read(name string) (interp.Value, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.vars[name]
	if ok {
		v = s.readLocked(name)
	}
	return v, ok
}

func (s *Values) readLocked(name string) interp.Value {
	if v, ok := s.squeezed[name]; ok {
		return v
	}
	return s.vars[name]
}

// squeeze records what a step reads of a variable from now on.
func (s *Values) squeeze(name string, v interp.Value) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.squeezed == nil {
		s.squeezed = map[string]interp.Value{}
	}
	s.squeezed[name] = v
}

// olderOutputs are the variables OCC's budget may change, largest first:
// not an input's name, nor one of the keep latest set.
func (s *Values) olderOutputs(keep int) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var names []string
	for _, name := range s.order {
		if _, input := s.inputs[name]; !input {
			names = append(names, name)
		}
	}
	names = names[:max(len(names)-keep, 0)]
	size := func(name string) int { return utf8.RuneCountInString(s.readLocked(name).Text) }
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(size(b), size(a)) })
	return names
}
