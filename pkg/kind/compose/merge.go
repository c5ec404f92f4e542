package compose

import "github.com/chainrun/chainrun/pkg/chain"

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
}

// Merge strategies.
const (
	MergeConcatenate  = "concatenate"
	MergeJSONArray    = "json_array"
	MergeLLMSummarize = "llm_summarize"
	MergePickBest     = "pick_best"
)

var mergeStrategies = []string{MergeConcatenate, MergeJSONArray, MergeLLMSummarize, MergePickBest}

// MergeStrategy is the step's strategy, concatenate when none is set.
func MergeStrategy(s *chain.Step) string {
	if Merge(s).Strategy == "" {
		return MergeConcatenate
	}
	return Merge(s).Strategy
}

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindMerge,
		Schema: map[string]any{"strategy": map[string]any{"enum": append(slices.Clone(mergeStrategies), debateStrategies...)}},
		Order:  170,
		Body:   reflect.TypeFor[MergeFields](),
		// the agent fields configure the model of llm_summarize and pick_best
		Also:    append([]string{"inputs"}, chain.ModelKeys...),
		Models:  true,
		Check:   checkMerge,
		Compile: compileMerge,
	})
}

func checkMerge(v chain.Checker, s *chain.Step) {
	v.InputList(s, "a merge step")
	if Merge(s).Strategy != "" && !slices.Contains(mergeStrategies, Merge(s).Strategy) {
		v.Errorf(s.At("strategy"), "%s: strategy is %s, not %q%s", s.Subject(), strings.Join(mergeStrategies, ", "), Merge(s).Strategy, chain.DidYouMean(Merge(s).Strategy, mergeStrategies))
	}
	st := MergeStrategy(s)
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
	chain.SetModelStep(s, v.NewModelStep(s, prompt))
}

func compileMerge(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	c.Inputs = nil
	for _, name := range s.MergeInputs() {
		r, _ := chain.ParseRef(name)
		if why := v.NamesNothing(s, &r); v.Chain().Reading().LooseMergeInputs && why != "" {
			// OCC's merge reads a name it lacks as "" (vars[v] ?? "")
			v.Warnf(s.At("inputs"), "%s: inputs: %s is read as \"\", as %s's merge reads it (%s): a likely typo, which chainrun's own format refuses",
				s.Subject(), name, v.Chain().Reading().Source, why)
			continue
		}
		v.Ref(s, "inputs", r)
	}
	if s.ModelStep() != nil && s.ModelStep().Kind != "" {
		v.Compile(s.ModelStep())
	}
}

// Merge is the step's MergeFields, a shared zero value when it has none (read
// only; write through Own).
func Merge(s *chain.Step) *MergeFields { return chain.Part[MergeFields](s) }
