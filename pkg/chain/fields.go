package chain

import (
	"sort"
	"sync"
)

// chainFields are the keys a DAG chain file may hold at its top level.
var chainFields = []string{"name", "description", "version", "inputs", "steps", "output", "budget", "tools"}

// inputFields are the keys of one entry of `inputs`.
var inputFields = []string{"name", "description", "optional", "default", "secret"}

// commonStepFields belong to every step kind: reference 002's lifecycle
// features (guardrails, retry, conditions, dependencies) work the same for
// deterministic and LLM steps.
var commonStepFields = []string{
	"id", "type", "label", "output_var", "depends_on", "condition", "early_exit_if",
	"timeout_ms", "retry", "continue_on_error", "idempotent", "pre_tools", "for_each",
	"guardrails", "output_must_contain", "output_must_not_contain", "output_max_length", "output_schema",
}

// llmOnlyFields configure a model call; reference 002 rejects them on a
// deterministic step when the chain is built.
var llmOnlyFields = []string{
	"model", "system", "temperature", "max_tokens", "tools", "fallback_models",
	"cache", "context_strategy", "max_turns", "condition_key", "completion",
}

// kindFields are the fields each kind adds to commonStepFields.
var kindFields = map[Kind][]string{
	KindAgent:     append([]string{"prompt", "cwd"}, llmOnlyFields...),
	KindCLI:       {"command", "args", "run", "env", "cwd"},
	KindHTTP:      {"method", "url", "headers", "body", "fail_on_status"},
	KindTransform: {"expr"},
	KindFile:      {"path", "cwd"},
	KindHuman:     {"prompt"},
	KindChain:     {"chain", "with"},
}

// kindOf normalises a step's type.
func kindOf(t string) (Kind, bool) {
	switch Kind(t) {
	case "":
		return KindAgent, true
	case KindShell:
		return KindCLI, true
	case KindAgent, KindCLI, KindHTTP, KindTransform, KindFile, KindHuman, KindChain:
		return Kind(t), true
	}
	return "", false
}

// Kinds lists the valid step types, for messages and the schema.
func Kinds() []string {
	return []string{"agent", "cli", "shell", "http", "transform", "file", "human", "chain"}
}

// allStepFields is every key any step may hold.
func allStepFields() []string {
	seen := map[string]bool{}
	var out []string
	add := func(fs []string) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	add(commonStepFields)
	for _, fs := range kindFields {
		add(fs)
	}
	sort.Strings(out)
	return out
}

// stepFields is every key a step may hold, as a set and sorted (for
// suggestions), computed once.
var stepFields = sync.OnceValues(func() (map[string]bool, []string) {
	all := allStepFields()
	known := make(map[string]bool, len(all))
	for _, f := range all {
		known[f] = true
	}
	return known, all
})

// fieldAllowed reports whether a step of kind k may set field f.
func fieldAllowed(k Kind, f string) bool {
	for _, x := range commonStepFields {
		if x == f {
			return true
		}
	}
	for _, x := range kindFields[k] {
		if x == f {
			return true
		}
	}
	return false
}

// suggest returns the candidate closest to s, if it is close enough to be
// the likely intent ("did you mean").
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 || bestD <= len(s)/3 {
		return best
	}
	return ""
}

func didYouMean(s string, candidates []string) string {
	if m := suggest(s, candidates); m != "" {
		return " (did you mean " + m + "?)"
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
