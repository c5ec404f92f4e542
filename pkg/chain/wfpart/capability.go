package wfpart

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/yamlpos"
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
	Pos    yamlpos.Pos
}

// CapabilityVerbs is mcp-flowgate's closed vocabulary of a capability's
// verb, in its order (a copy: validation and messages read it).
func CapabilityVerbs() []string { return slices.Clone(capabilityVerbs) }

// Lifecycles are a capability's or a fragment's lifecycles, in order.
func Lifecycles() []string { return slices.Clone(lifecycles) }

// FragmentVerbs is the closed vocabulary of a guidance fragment's verb,
// in order (a copy).
func FragmentVerbs() []string { return slices.Clone(fragmentVerbs) }
