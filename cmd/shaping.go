package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// shaping holds the flags that change what a run does (as opposed to how
// it is shown). run records the ones given with the run, and resume
// applies them again, so a resume runs the way the run began; resume
// takes the same flags to change them.
type shaping struct {
	noCache    bool
	keepGoing  bool
	maxTokens  int
	maxCost    float64
	agentModel string
	grants     []string
}

// shapingFlags are the names of those flags, in the order they are shown.
var shapingFlags = []string{"model", "max-tokens", "max-cost", "agent-model", "max-parallel", "max-parallel-llm", "no-cache", "grant", "durability", "keep-going"}

// define adds the run-shaping flags to fl.
func (s *shaping) define(fl *pflag.FlagSet) {
	fl.Int("max-parallel", 0, "most steps running at once (default: CPUs, at least 4)")
	fl.Int("max-parallel-llm", 0, "most requests in flight to each model provider (default: no cap)")
	fl.BoolVar(&s.noCache, "no-cache", false, "ignore cached LLM results")
	fl.BoolVar(&s.keepGoing, "keep-going", false, "after a step fails, let the steps that do not depend on it finish (the run still fails)")
	fl.String("model", "", "model for LLM steps that name none (provider/model)")
	fl.IntVar(&s.maxTokens, "max-tokens", 0, "stop the run before a model call once this many tokens are used")
	fl.Float64Var(&s.maxCost, "max-cost", 0, "stop the run before a model call that would take its cost past this many US dollars")
	fl.StringVar(&s.agentModel, "agent-model", "", "let this model decide a workflow's agent decision points instead of pausing")
	fl.StringArrayVar(&s.grants, "grant", nil, "allow agent steps to call this tool although they do not list it (repeatable)")
	fl.String("durability", "", "strict: flush each saved step to disk, so it survives a power cut (default normal: survives a crash of chainrun)")
	// not recorded with the run: how this process exits, not what the run does
	fl.Bool("pass-exit-code", false, "when a command's failure fails the run, exit with its exit status instead of 1 (not 2, 3 or 130)")
}

// bindShaping binds the flags config has a key for to the command that
// runs (run and resume both define them; a binding is one flag's).
func bindShaping(f *factory, fl *pflag.FlagSet) {
	bindFlag(f.v, keyMaxParallel, fl.Lookup("max-parallel"))
	bindFlag(f.v, keyModel, fl.Lookup("model"))
	bindFlag(f.v, keyMaxParallelLLM, fl.Lookup("max-parallel-llm"))
	bindFlag(f.v, keyDurability, fl.Lookup("durability"))
	bindFlag(f.v, keyPassExitCode, fl.Lookup("pass-exit-code"))
}

// givenShaping is the run-shaping flags given on fl, each with its
// values, for the run's record.
func givenShaping(fl *pflag.FlagSet) map[string][]string {
	out := map[string][]string{}
	for _, name := range shapingFlags {
		if fl.Changed(name) {
			out[name] = flagValues(fl.Lookup(name))
		}
	}
	return out
}

func flagValues(fl *pflag.Flag) []string {
	if sv, ok := fl.Value.(pflag.SliceValue); ok {
		return sv.GetSlice()
	}
	return []string{fl.Value.String()}
}

// applyShaping sets on fl the flags a run recorded that the resume does
// not give; a flag given with another value wins, with a warning (as a
// changed input does), and the result is what the run records from now.
func applyShaping(fl *pflag.FlagSet, recorded map[string][]string, runID string, warn io.Writer) error {
	for _, name := range shapingFlags {
		old, had := recorded[name]
		if !had {
			continue
		}
		if fl.Changed(name) {
			if now := flagValues(fl.Lookup(name)); !slices.Equal(now, old) {
				fmt.Fprintf(warn, "chainrun: warning: --%s changes from %q to %q for the rest of run %s\n", name, strings.Join(old, ","), strings.Join(now, ","), runID)
			}
			continue
		}
		for _, v := range old {
			if err := fl.Set(name, v); err != nil {
				return usagef("run %s recorded --%s %s: %v", runID, name, v, err)
			}
		}
	}
	return nil
}
