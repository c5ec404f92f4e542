package chain

import (
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Lifecycle stages of a workflow or a guidance fragment (mcp-flowgate):
// a deprecated workflow still runs, with a warning.
const (
	LifecycleExperimental = "experimental"
	LifecycleStable       = "stable"
	LifecycleDeprecated   = "deprecated"
)

var lifecycles = []string{LifecycleExperimental, LifecycleStable, LifecycleDeprecated}

// capabilityVerbs is mcp-flowgate's closed vocabulary of what a
// capability workflow does: cognitive, deterministic and coordination
// verbs. A cap.* workflow is named cap.<verb>.<name>.
var capabilityVerbs = []string{
	"triage", "diagnose", "plan", "implement", "review", "refactor", "explain", "compose", "research", "summarize",
	"build", "test", "deploy", "format", "lint", "install", "verify", "run", "inspect", "search", "fetch", "audit",
	"gate", "coordinate",
}

// fragmentVerbs is the closed vocabulary of a guidance fragment's verb
// (the cognitive postures, with the reconnaissance verbs research and
// summarize of mcp-flowgate's SPEC v0.3: discovery.rs Verb::ALL_TOKENS).
var fragmentVerbs = capabilityVerbs[:10]

// Capability is what a workflow declares of itself as a reusable unit
// (mcp-flowgate's capability tier): what it does, how settled it is, and
// the values it returns.
type Capability struct {
	Verb      string
	Lifecycle string
	// Outputs are the snippet's outputs, in the order written: the values
	// a run returns from its context, each checked against its schema.
	Outputs []*SnippetOutput
}

// SnippetOutput is one value a capability returns.
type SnippetOutput struct {
	Name   string
	Raw    map[string]any
	Schema *jsonschema.Resolved
	Pos    Pos
}

// checkCapability checks the workflow's verb and lifecycle against the
// closed vocabularies, and a cap.* name against its verb (a name that
// does not match is warned of).
func (v *validator) checkCapability() {
	c, w := v.c, v.c.Workflow
	if w.Cap.Verb != "" {
		at := w.at("verb", c.Pos)
		switch {
		case !slices.Contains(capabilityVerbs, w.Cap.Verb):
			v.d.Errorf(at, "workflow %q: verb %q is not one of %s", c.Name, w.Cap.Verb, strings.Join(capabilityVerbs, ", "))
		case strings.HasPrefix(c.Name, "flow."):
			v.d.Errorf(at, "workflow %q: an orchestrator (flow.*) declares no verb", c.Name)
		case strings.HasPrefix(c.Name, "cap.") && !strings.HasPrefix(c.Name, "cap."+w.Cap.Verb+"."):
			// mcp-flowgate runs such a capability (its own end-to-end walks
			// call cap.tests.*, an older spelling): a warning, not a refusal
			v.d.Warnf(at, "workflow %q: a capability of verb %s is named cap.%s.<name>", c.Name, w.Cap.Verb, w.Cap.Verb)
		}
	}
	if w.Cap.Lifecycle != "" {
		at := w.at("lifecycle", c.Pos)
		switch {
		case !slices.Contains(lifecycles, w.Cap.Lifecycle):
			// mcp-flowgate checks no workflow's lifecycle (it only
			// compares it with stable): a warning, not a refusal
			v.d.Warnf(at, "workflow %q: lifecycle %q is not one of %s: read as written, which only stable and deprecated give a meaning", c.Name, w.Cap.Lifecycle, strings.Join(lifecycles, ", "))
		case w.Cap.Lifecycle == LifecycleDeprecated:
			v.d.Warnf(at, "workflow %q is deprecated (lifecycle: deprecated)", c.Name)
		}
	}
	if _, declared := w.FieldPos["snippet"]; !declared && namesCapability(c.Name) {
		// mcp-flowgate's check refuses it (snippet_contract.rs, V3); its
		// runtime runs it: a warning
		v.d.Warnf(c.Pos, "workflow %q: a capability declares its contract in snippet: {inputs, outputs}, which mcp-flowgate's check requires (MISSING_SNIPPET): without it, what the run returns is not checked", c.Name)
	}
	for _, o := range w.Cap.Outputs {
		_, rs, problem := resolveSchema(o.Raw)
		if problem != "" {
			v.d.Errorf(o.Pos, "workflow %q: snippet output %q: %s", c.Name, o.Name, problem)
			continue
		}
		o.Schema = rs
	}
}
