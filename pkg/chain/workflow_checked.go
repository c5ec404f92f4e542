package chain

import (
	"maps"
	"regexp"

	"github.com/chainrun/chainrun/pkg/chain/fileschema"
	"github.com/google/jsonschema-go/jsonschema"
)

// What validation of a workflow (pkg/chain/wfcheck) compiles into the
// model, and the model's reading of it at run time.

// FinishCut is the finish reason of an answer cut at max_tokens, the
// result of an agent task that a branch may take (reference 003).
const FinishCut = "length"

// placeholderPattern is a {{ $.path }} in a goal or guidance.
var placeholderPattern = LazyRegexp(`\{\{\s*(\$[^{}]*?)\s*\}\}`)

// Placeholders finds the {{ $.path }} placeholders of a goal's or
// guidance's text, the path in the first group: validation checks them
// and the run fills them with the same pattern.
func Placeholders() *regexp.Regexp { return placeholderPattern() }

// Link filters: which transitions a decision point offers.
const (
	LinkFilterByGuards = "byGuards"
	LinkFilterAll      = "all"
)

// Filter is the state's link filter: its own, else the workflow's, else
// byGuards.
func (w *Workflow) Filter(s *State) string {
	switch {
	case s != nil && s.LinkFilter != "":
		return s.LinkFilter
	case w.LinkFilter != "":
		return w.LinkFilter
	}
	return LinkFilterByGuards
}

// SetTexts sets the state's goal and guidance as validation parsed them
// (GoalTemplate, GuidanceTemplate).
func (s *State) SetTexts(goal, guidance *Template) { s.goal, s.guidance = goal, guidance }

// BranchesUnread reports whether the state's transition.branches could
// not be read (reported): whether they are empty is then not judged.
func (s *State) BranchesUnread() bool { return s.branchesUnread }

// TimeoutUnread reports whether the state's timeout could not be read
// (reported): what it needs is then not judged.
func (s *State) TimeoutUnread() bool { return s.timeoutUnread }

// SetCond sets the transition's condition as validation compiled it (Cond).
func (t *Transition) SetCond(e *Expression) { t.cond = e }

// NeededArg is an argument a transition cannot be taken without
// (pkg/chain/fileschema reads them from its inputSchema).
type NeededArg = fileschema.NeededArg

// NeededArgs are the arguments the transition cannot be taken without,
// in the order its inputSchema requires them; nil when it needs none.
func (t *Transition) NeededArgs() []NeededArg { return t.needs }

// ArgSchemaOf is the compiled schema one argument alone must satisfy (its
// property of the inputSchema, with the schema's definitions), so that a
// value can be checked as it is given, before the others; nil when the
// transition declares no such property.
func (t *Transition) ArgSchemaOf(name string) *jsonschema.Resolved { return t.argProps[name] }

// SetArgs sets the transition's arguments as validation compiled its
// inputSchema: the schema, each argument's type, those it cannot be taken
// without, each one's own schema (ArgSchema, ArgType, NeededArgs,
// ArgSchemaOf).
func (t *Transition) SetArgs(rs *jsonschema.Resolved, types map[string]string, needs []NeededArg, props map[string]*jsonschema.Resolved) {
	t.args, t.argTypes, t.needs, t.argProps = rs, types, needs, props
}

// SetPrefill sets the transition's prefill as validation compiled it: its
// JSONPaths are read when a decision takes the transition (PrefillIn).
func (t *Transition) SetPrefill(m *Mapped) { t.prefill = m }

// PrefillIn is the transition's prefill with its JSONPaths read in doc
// (a path that selects nothing gives null).
func (t *Transition) PrefillIn(doc map[string]any) map[string]any {
	if t.prefill == nil {
		return maps.Clone(t.Prefill)
	}
	out, _ := t.prefill.Resolve(doc).(map[string]any)
	return out
}

// SetCutIsResult says whether an answer cut at max_tokens is the
// workflow task's result, length (CutIsResult): its state has a branch
// other than the default one that takes length.
func (s *Step) SetCutIsResult(cut bool) { s.cutIsResult = cut }

// SetKeywordFallsThrough says that a condition_key answer naming none of
// the keywords is the workflow task's result (KeywordFallsThrough): its
// state has a default branch to take it.
func (s *Step) SetKeywordFallsThrough() { s.keywordDefault = true }

// Unreachable lists the steps (executors, tasks, onEnter) of the states
// no path from initialState reaches, and the executors of a terminal
// state's transitions (never taken), as validation found them
// (SetUnreachable): a run never needs what they name, so a connection or
// script only they name does not refuse it.
func (w *Workflow) Unreachable() []*Step { return w.unreachable }

// SetUnreachable records the steps validation found no run reaches
// (Unreachable).
func (w *Workflow) SetUnreachable(steps []*Step) { w.unreachable = steps }
