package chain

import (
	"reflect"
	"slices"
	"strings"
)

// MergeFields configure a merge step (OCC's `type: merge`): it combines
// the variables its inputs name. concatenate and json_array run no model;
// llm_summarize and pick_best ask one, through an agent step of the
// merge's own (its prompt, model and the rest of the agent fields).
type MergeFields struct {
	// Inputs is a list of variable names on a merge step (and a
	// transform's merge operation), a mapping of inputs on a subchain.
	Strategy string `yaml:"strategy" doc:"merge: concatenate (default), json_array, llm_summarize or pick_best; debate: consensus, vote (or voting) or last_round."`

	// modelStep is the agent step asking a merge's or a debate's
	// synthesis of a model.
	modelStep *Step
}

// Merge strategies.
const (
	MergeConcatenate  = "concatenate"
	MergeJSONArray    = "json_array"
	MergeLLMSummarize = "llm_summarize"
	MergePickBest     = "pick_best"
)

// modelKeys are the agent fields of a kind that asks a model one
// question, with no tools: a merge's and a debate's.
var modelKeys = []string{"prompt", "model", "system", "temperature", "max_tokens", "fallback_models", "cache", "context_strategy"}

var mergeStrategies = []string{MergeConcatenate, MergeJSONArray, MergeLLMSummarize, MergePickBest}

// ModelStep is the agent step a merge (llm_summarize, pick_best) or a
// debate (its synthesis) asks a model through; nil when it asks none.
func (s *Step) ModelStep() *Step { return Merge(s).modelStep }

// MergeStrategy is the step's strategy, concatenate when none is set.
func (s *Step) MergeStrategy() string {
	if Merge(s).Strategy == "" {
		return MergeConcatenate
	}
	return Merge(s).Strategy
}

func init() {
	Register(Unit{
		Kind:   KindMerge,
		Schema: map[string]any{"strategy": map[string]any{"enum": append(slices.Clone(mergeStrategies), debateStrategies...)}},
		Order:  170,
		Body:   reflect.TypeFor[MergeFields](),
		// the agent fields configure the model of llm_summarize and pick_best
		Also:    append([]string{"inputs"}, modelKeys...),
		Models:  true,
		Check:   checkMerge,
		Compile: compileMerge,
	})
}

func checkMerge(v Checker, s *Step) {
	v.InputList(s, "a merge step")
	if Merge(s).Strategy != "" && !slices.Contains(mergeStrategies, Merge(s).Strategy) {
		v.Errorf(s.At("strategy"), "%s: strategy is %s, not %q%s", s.Subject(), strings.Join(mergeStrategies, ", "), Merge(s).Strategy, DidYouMean(Merge(s).Strategy, mergeStrategies))
	}
	st := s.MergeStrategy()
	if st != MergeLLMSummarize && st != MergePickBest {
		return
	}
	// the model's question: the step's prompt followed by the inputs it
	// does not read itself, or OCC's own question when it has none
	prompt := s.Agent().Prompt
	if prompt == "" {
		prompt = map[string]string{
			MergeLLMSummarize: "Synthesize and summarize the following sections into a coherent document:",
			MergePickBest:     "You are given multiple outputs. Pick the BEST one based on quality, completeness, and accuracy. Return ONLY the content of the best option, with no additional commentary.",
		}[st]
	}
	var sections []string
	for _, name := range s.MergeInputs() {
		if !strings.Contains(prompt, "{"+name) {
			label := name
			if st == MergePickBest {
				label = "Option: " + name
			}
			sections = append(sections, "## "+label+"\n{"+name+"}")
		}
	}
	if len(sections) > 0 {
		prompt += "\n\n" + strings.Join(sections, "\n\n")
	}
	Own[MergeFields](s).modelStep = v.modelStep(s, prompt)
}

// modelStep makes the agent step that asks a merge's or a debate's
// question: the step's own agent fields, with prompt as its prompt.
func (v Checker) modelStep(s *Step, prompt string) *Step {
	m := &Step{CommonFields: CommonFields{Type: string(KindAgent), Retry: s.Retry, TimeoutMS: s.TimeoutMS},
		Pos: s.Pos, FieldPos: map[string]Pos{"type": s.Pos}}
	a := Own[AgentFields](m)
	*a = *s.Agent()
	a.Prompt = prompt
	a.Tools, a.Completion, a.ConditionKey = nil, nil, nil
	for f, p := range s.FieldPos {
		if slices.Contains(modelKeys, f) {
			m.FieldPos[f] = p
		}
	}
	v.nested(s, m, s.Subject(), s.ID)
	return m
}

func compileMerge(v Checker, s *Step, c *Compiled) {
	c.Inputs = nil
	for _, name := range s.MergeInputs() {
		r, _ := ParseRef(name)
		if why := v.NamesNothing(s, &r); v.Chain().Reading().LooseMergeInputs && why != "" {
			// OCC's merge reads a name it lacks as "" (vars[v] ?? "")
			v.Warnf(s.At("inputs"), "%s: inputs: %s is read as \"\", as %s's merge reads it (%s): a likely typo, which chainrun's own format refuses",
				s.Subject(), name, v.Chain().Reading().Source, why)
			continue
		}
		v.Ref(s, "inputs", r)
	}
	if Merge(s).modelStep != nil && Merge(s).modelStep.Kind != "" {
		v.Compile(Merge(s).modelStep)
	}
}

// Merge is the step's MergeFields, a shared zero value when it has none (read
// only; write through Own).
func Merge(s *Step) *MergeFields { return Part[MergeFields](s) }
